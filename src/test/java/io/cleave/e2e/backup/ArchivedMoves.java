package io.cleave.e2e.backup;

import io.cleave.manager.backup.CutRecord;
import io.cleave.manager.backup.restore.Restore;
import io.cleave.manager.backup.restore.RestoreRequest;
import io.cleave.manager.config.BackupConfig;
import io.cleave.manager.move.MoveHooks;

import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the point-in-time tests across a move share: archiving config, a two-shard bank, slow moves, a move held
 * before it verifies, a restore to a recorded cut.
 */
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

    /**
     * Restores recorded cut {@code cut} of {@code archive} into {@code into} with {@code shards} shards, checks
     * that it started from backup {@code base} and that every table holds what was read, and starts the home.
     */
    static RestoredHome restoreCut(BackupConfig settings, Path archive, CutRecord cut, String base, Path into,
                                   int shards) throws Exception {
        Restore.Result r = new Restore(settings, System.getenv(), line -> System.out.println("restore: " + line))
                .run(new RestoreRequest(archive.toString(), null, OptionalLong.empty(), OptionalLong.of(cut.id()), into,
                        OptionalInt.of(shards)));
        assertThat(r.backup()).as("the base of cut %d", cut.id()).isEqualTo(base);
        assertThat(r.problems()).as("tables whose rows differ from what was read at the cut").isEmpty();
        RestoredHome h = RestoredHome.start(r.home(), r.config(), BackupRestoreIT.freeBase(shards), BackupRestoreIT.freePort());
        assertThat(h.shards()).isEqualTo(shards);
        return h;
    }

    @Override
    public void close() {
        System.clearProperty("cleave.move.chunk_rows");
        System.clearProperty("cleave.move.duty");
    }
}
