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
     * Calls {@code listener} with every version published from now on, on the publishing thread,
     * before {@link #publish} returns (so a mover knows the routers follow the map it published).
     */
    public void onPublish(Consumer<ShardMap> listener) {
        listeners.add(listener);
    }
}
