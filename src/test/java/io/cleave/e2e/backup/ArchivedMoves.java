package io.cleave.e2e.backup;

import io.cleave.manager.move.MoveHooks;

import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** What the point-in-time tests across a move share: archiving config, slow moves, a move held before it verifies. */
final class ArchivedMoves implements AutoCloseable {

    private ArchivedMoves() {
    }

    /**
     * Two shards holding the bank of {@link BackupAtOneCutIT#SHAPE} by branch (1-150 on shard 0, the rest
     * on shard 1, as {@link LedgeredTransfers} with two shards takes them to lie), its ledger too, and a
     * reference table.
     */
    static final String TWO_SHARD_BANK = """
            sharding:
              keyspaces:
                - name: branch
                  function: range
                  ranges:
                    - { from: 1, to: 150, shard: 0 }
                    - { from: 151, shard: 1 }
              tables:
                - { name: accounts, keyspace: branch, column: branch }
                - { name: entries, keyspace: branch, column: branch }
                - { name: branch_names, type: reference }
            """;

    /** The backup section of a home archiving its binlogs to {@code archive} with a cut every second. */
    static String archiving(Path archive) {
        return "backup:\n  location: \"" + archive + "\"\n  archive_binlogs: true\n  cut_interval_s: 1\n";
    }

    /**
     * Moves of an in-process daemon started from now on copy in chunks of 100 rows, working a quarter
     * of the time, so that a test can act while one copies; undone by {@link #close()}.
     */
    static ArchivedMoves slowCopies() {
        System.setProperty("cleave.move.chunk_rows", "100");
        System.setProperty("cleave.move.duty", "0.25");
        return new ArchivedMoves();
    }

    /** Hooks that hold a move before it verifies (its copy in place, the map not flipped) until {@code release}. */
    static MoveHooks holdBeforeVerifying(CountDownLatch release) {
        return (point, id) -> {
            if (point == MoveHooks.Point.VERIFYING) {
                try {
                    release.await(2, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }

    @Override
    public void close() {
        System.clearProperty("cleave.move.chunk_rows");
        System.clearProperty("cleave.move.duty");
    }
}
