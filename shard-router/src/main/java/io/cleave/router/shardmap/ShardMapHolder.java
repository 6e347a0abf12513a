package io.cleave.router.shardmap;

import java.util.concurrent.atomic.AtomicReference;

/** The current shard map; a new version replaces the old one atomically, in version order. */
public final class ShardMapHolder {

    private final AtomicReference<ShardMap> current;

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
    }
}
