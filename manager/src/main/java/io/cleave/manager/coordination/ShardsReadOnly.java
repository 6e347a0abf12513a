package io.cleave.manager.coordination;

import io.cleave.manager.move.ShardLinks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Sets a fenced home's shards read-only, and writable again once it holds the lease anew, in the order asked,
 * on a thread of its own: {@code SET GLOBAL read_only} waits for commits under way, and those may wait for a
 * semi-sync acknowledgement that no longer comes, so the fence itself (the proxy's) never waits for it.
 * A second line only: accounts with SUPER write through read_only on MariaDB 10.11, and XA COMMIT passes it.
 */
public final class ShardsReadOnly implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ShardsReadOnly.class);
    private static final int TIMEOUT_SECONDS = 10;

    private final ShardLinks links;
    private final ExecutorService thread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "shards-read-only");
        t.setDaemon(true);
        return t;
    });

    public ShardsReadOnly(ShardLinks links) {
        this.links = links;
    }

    public void set(List<Integer> shards, boolean readOnly) {
        thread.execute(() -> {
            for (int shard : shards) {
                try (Connection c = links.open(shard); Statement s = c.createStatement()) {
                    s.setQueryTimeout(TIMEOUT_SECONDS);
                    s.execute("SET GLOBAL read_only = " + (readOnly ? "ON" : "OFF"));
                } catch (SQLException e) {
                    log.warn("shard {}: could not set read_only {}: {}", shard, readOnly ? "ON" : "OFF", e.getMessage());
                }
            }
        });
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
