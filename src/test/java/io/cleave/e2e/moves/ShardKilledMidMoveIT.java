package io.cleave.e2e.moves;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.ServerMatrix;
import io.cleave.manager.move.MoveHooks;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.manager.move.MoveService;
import io.cleave.manager.supervisor.InstanceState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.sql.Connection;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.cleave.e2e.moves.MoveChecks.count;
import static io.cleave.e2e.moves.MoveChecks.execute;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The source or the target shard dies (SIGKILL) in the middle of a move's copy or catch-up. The
 * move pauses while the supervisor restarts the shard, then goes on and finishes: the moved rows
 * are on the target only, and the row count is unchanged.
 */
@ServerMatrix
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShardKilledMidMoveIT {


    private CleaveTestHome home;
    private RunningDaemon daemon;
    private MoveService moves;

    @BeforeAll
    void start() throws Exception {
        home = CleaveTestHome.builder().shards(2).extraYaml(MoveChecks.TWO_RANGES).create();
        daemon = home.start();
        moves = daemon.daemon().moves();
        try (Connection c = daemon.connectProxy("", "")) {
            execute(c, "CREATE DATABASE k");
            execute(c, "CREATE TABLE k.t (w INT NOT NULL, i INT NOT NULL, v VARCHAR(20), PRIMARY KEY (w, i))");
            for (int w = 1; w <= 400; w += 50) {
                StringBuilder values = new StringBuilder();
                for (int key = w; key < w + 50; key++) {
                    for (int i = 0; i < 20; i++) {
                        values.append(values.isEmpty() ? "" : ",").append("(").append(key).append(",").append(i)
                                .append(",'v')");
                    }
                }
                execute(c, "INSERT INTO k.t (w, i, v) VALUES " + values);
            }
        }
    }

    @AfterAll
    void stop() {
        if (daemon != null) {
            daemon.close();
        }
        if (home != null) {
            home.close();
        }
    }

    @ParameterizedTest(name = "shard {1} killed at {0}")
    @CsvSource({"COPYING, 0, 1", "COPYING, 1, 101", "CATCHING_UP, 0, 201", "CATCHING_UP, 1, 301"})
    void theMovePausesWhileAShardIsDownAndFinishesWhenItIsBack(MoveHooks.Point point, int victim, int from)
            throws Exception {
        long before = total();
        AtomicBoolean killed = new AtomicBoolean();
        long pid = daemon.status(victim).pid();
        moves.testHooks((p, id) -> {
            if (p == point && killed.compareAndSet(false, true)) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                ProcessHandle.of(pid).ifPresent(h -> h.onExit().join());
            }
        });
        try {
            MoveRecord started = moves.start("w", from + "-" + (from + 99), 1, "test");
            MoveRecord done = MoveChecks.awaitEnd(moves, started.id, Duration.ofMinutes(2));
            assertThat(killed).as("the hook ran").isTrue();
            assertThat(done.phase).as(done.message).isEqualTo(MovePhase.DONE);
        } finally {
            moves.testHooks(MoveHooks.NONE);
        }
        daemon.awaitStatus(victim, s -> s.state() == InstanceState.RUNNING && s.pid() != pid, Duration.ofSeconds(60));
        String range = "w BETWEEN " + from + " AND " + (from + 99);
        assertThat(count(daemon, 0, "SELECT COUNT(*) FROM k.t WHERE " + range)).isZero();
        assertThat(count(daemon, 1, "SELECT COUNT(*) FROM k.t WHERE " + range)).isEqualTo(100 * 20);
        assertThat(total()).isEqualTo(before);
    }

    private long total() throws Exception {
        return count(daemon, 0, "SELECT COUNT(*) FROM k.t") + count(daemon, 1, "SELECT COUNT(*) FROM k.t");
    }
}
