package io.cleave.router.shardmap;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The current shard map; a new version replaces the old one atomically, in version order. Whoever
 * derives state from the map (a router's table rules) follows it through {@link #onPublish}.
 */
public final class ShardMapHolder {

    private final AtomicReference<ShardMap> current;
    private final List<Consumer<ShardMap>> listeners = new CopyOnWriteArrayList<>();

    public ShardMapHolder(ShardMap initial) {
        this.current = new AtomicReference<>(initial);
    }

    public ShardMap current() {
        return current.get();
    }

    /**
     * Publishes {@code next}, which must be the version right after the current one.
     *
     * @throws IllegalStateException when another version was published in between
     */
    public void publish(ShardMap next) {
        ShardMap expected = current.get();
        if (next.version() != expected.version() + 1 || !current.compareAndSet(expected, next)) {
            throw new IllegalStateException("shard map version " + next.version()
                    + " does not follow the current version " + current.get().version());
        }
        for (Consumer<ShardMap> l : listeners) {
            l.accept(next);
        }
    }

    /**
     * Replaces the current map by {@code newer}, a version that did not follow from it here: the primary's
     * newest, which a promoted standby read from its replicas. Versions stay the primary's, so a later
     * version written here is newer than any the primary wrote.
     *
     * @throws IllegalStateException when {@code newer} is not newer than the current version
     */
    public synchronized void adopt(ShardMap newer) {
        ShardMap expected = current.get();
        if (newer.version() <= expected.version() || !current.compareAndSet(expected, newer)) {
            throw new IllegalStateException("shard map version " + newer.version() + " is not newer than the current"
                    + " version " + current.get().version());
        }
        for (Consumer<ShardMap> l : listeners) {
            l.accept(newer);
        }
    }

    /**
     * Calls {@code listener} with every version published from now on, on the publishing thread,
     * before {@link #publish} returns (so a mover knows the routers follow the map it published).
     */
    public void onPublish(Consumer<ShardMap> listener) {
        listeners.add(listener);
    }
}
