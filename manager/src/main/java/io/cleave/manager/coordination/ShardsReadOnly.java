package io.cleave.manager.coordination;

import io.cleave.manager.move.ShardLinks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Sets a fenced home's shards read-only, and writable again once it holds the lease anew, in the order asked,
 * on a thread of its own: {@code SET GLOBAL read_only} waits for commits under way, and those may wait for a
 * semi-sync acknowledgement that no longer comes, so the fence itself (the proxy's) never waits for it. How one
 * shard is set, and why not while such commits wait: {@link ShardReadOnlySetting}. A shard where the setting does
 * not take (commits wait for the standby, its lock wait ran out, or the shard was down) is tried again until it
 * takes or a later call asks otherwise; {@link #pending()} names those shards for the status.
 * A second line only: accounts with SUPER write through read_only on MariaDB 10.11, and XA COMMIT passes it.
 */
public final class ShardsReadOnly implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ShardsReadOnly.class);
    private static final Duration RETRY_AFTER = Duration.ofSeconds(1);

    /** Sets one shard's read_only, failing when it did not take. */
    @FunctionalInterface
    public interface Setting {
        void apply(int shard, boolean readOnly) throws SQLException;
    }

    private final Setting setting;
    private final Duration retryAfter;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "shards-read-only");
        t.setDaemon(true);
        return t;
    });
    /** Bumped by every call: a retry of an older call stops once a newer one is asked. */
    private final java.util.concurrent.atomic.AtomicLong asked = new java.util.concurrent.atomic.AtomicLong();
    /** The shards of the latest call where the setting has not taken yet, with why. */
    private final Map<Integer, String> pending = new java.util.concurrent.ConcurrentSkipListMap<>();
    private volatile boolean pendingReadOnly;

    public ShardsReadOnly(ShardLinks links) {
        this(ShardReadOnlySetting.over(links), RETRY_AFTER);
    }

    public ShardsReadOnly(Setting setting, Duration retryAfter) {
        this.setting = setting;
        this.retryAfter = retryAfter;
    }

    public void set(List<Integer> shards, boolean readOnly) {
        long call = asked.incrementAndGet();
        thread.execute(() -> apply(call, shards, readOnly));
    }

    private void apply(long call, List<Integer> shards, boolean readOnly) {
        String value = readOnly ? "ON" : "OFF";
        pending.clear();
        pendingReadOnly = readOnly;
        shards.forEach(s -> pending.put(s, "first try under way"));
        for (int attempt = 1; !pending.isEmpty(); attempt++) {
            for (int shard : List.copyOf(pending.keySet())) {
                if (asked.get() != call) {
                    return;
                }
                try {
                    setting.apply(shard, readOnly);
                    pending.remove(shard);
                    if (attempt > 1) {
                        log.info("shard {}: read_only {} took at attempt {}", shard, value, attempt);
                    }
                } catch (SQLException e) {
                    String before = pending.put(shard, e.getMessage());
                    // Once per reason: commits waiting for a lost standby keep it from taking for as long as they wait.
                    if (!e.getMessage().equals(before)) {
                        log.warn("shard {}: could not set read_only {} (attempt {}): {}; trying again every {} ms", shard,
                                value, attempt, e.getMessage(), retryAfter.toMillis());
                    }
                }
            }
            if (!pending.isEmpty()) {
                try {
                    Thread.sleep(retryAfter.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /**
     * The shards where the latest setting has not taken yet, with why (for the status); null when it took on
     * every shard.
     */
    public String pending() {
        Map<Integer, String> now = new TreeMap<>(pending);
        if (now.isEmpty()) {
            return null;
        }
        StringBuilder out = new StringBuilder("read_only " + (pendingReadOnly ? "ON" : "OFF") + " not set yet on");
        now.forEach((shard, why) -> out.append(" shard ").append(shard).append(" (").append(why).append(')'));
        return out.append(": trying again").toString();
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
