package io.cleave.bench.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cleave.bench.exec.ChildProcess;
import io.cleave.bench.home.BenchHome;
import io.cleave.bench.home.HomeStatus;
import io.cleave.bench.jdbc.JdbcTarget;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;

/**
 * The soak's Cleave home as the faults and checks reach it: the real binary's daemon and shards as
 * processes to signal, the CLI to run moves, scales and the rest with, the state directory's shard
 * map, the admin API's moves and metrics, and each shard directly.
 */
final class ChaosHome implements ShardAccess {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration COMMAND_TIMEOUT = Duration.ofMinutes(3);

    private final BenchHome home;
    private final ChaosLayout layout;

    ChaosHome(BenchHome home, ChaosLayout layout) {
        this.home = home;
        this.layout = layout;
    }

    BenchHome bench() {
        return home;
    }

    @Override
    public DataSource shard(int shard, String database) {
        return home.shard(shard, database);
    }

    /** A shard's connection; a failure says which shard. */
    @Override
    public Connection open(int shard, String database) throws SQLException {
        try {
            return home.shard(shard, database).getConnection();
        } catch (SQLException e) {
            throw new SQLException("cannot connect to shard " + shard + " (port " + home.shardPort(shard) + "): "
                + e.getMessage(), e.getSQLState(), e.getErrorCode(), e);
        }
    }

    JdbcTarget proxy(String database) {
        return home.proxy(database);
    }

    /** The daemon's status (GET /v1/status, what {@code cleave status --json} prints), without starting a JVM. */
    HomeStatus status() {
        return HomeStatus.parse(home.admin("GET", "/v1/status", null));
    }

    String metrics() {
        return home.metrics();
    }

    /** Runs {@code cleave ARGS --home=...} and returns its exit code and output. */
    ChildProcess.Result cleave(String... args) {
        return home.cleaveCommand(COMMAND_TIMEOUT, args);
    }

    /** Every move the daemon knows (GET /v1/moves). */
    JsonNode moves() {
        try {
            return JSON.readTree(home.admin("GET", "/v1/moves", null));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Moves not ended (DONE, CANCELLED or FAILED). */
    List<JsonNode> movesUnderWay() {
        List<JsonNode> out = new ArrayList<>();
        for (JsonNode m : moves()) {
            String phase = m.path("phase").asText();
            if (!phase.equals("DONE") && !phase.equals("CANCELLED") && !phase.equals("FAILED")) {
                out.add(m);
            }
        }
        return out;
    }

    /** The shard map now, with the tables whole-table moves are copying. */
    ShardMapView map() {
        Set<String> copying = new HashSet<>();
        for (JsonNode m : movesUnderWay()) {
            for (JsonNode t : m.path("tables")) {
                copying.add(ShardMapView.bare(t.path("table").asText()));
            }
        }
        try {
            return ShardMapView.read(home.stateFile("shard-map.json"), layout, copying);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the shard map: " + e.getMessage(), e);
        }
    }

    /** Sends a signal (KILL, STOP, CONT) to a process of the home. */
    void signal(long pid, String signal) {
        ChildProcess.Result r = ChildProcess.run(List.of("kill", "-" + signal, Long.toString(pid)), Duration.ofSeconds(10));
        if (r.exitCode() != 0) {
            throw new IllegalStateException("kill -" + signal + " " + pid + " failed: " + r.output().strip());
        }
    }

    /** Waits until a process is gone (after SIGKILL). */
    static void awaitGone(long pid, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("process " + pid + " still runs " + timeout.toSeconds() + " s after SIGKILL");
            }
            Thread.sleep(50);
        }
    }

    void restartDaemon() {
        home.restartDaemon();
    }

    /**
     * Waits until the daemon answers, every shard of the map runs and the proxy answers a query;
     * returns what it waited for when it does not within {@code timeout}, else null.
     */
    String awaitSettled(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            try {
                int shards = map().shardCount();
                HomeStatus status = status();
                List<String> down = new ArrayList<>();
                for (HomeStatus.Instance i : status.instances()) {
                    // A shard just killed still reads RUNNING until its supervisor sees the exit: its pid tells.
                    boolean alive = ProcessHandle.of(i.pid()).map(ProcessHandle::isAlive).orElse(false);
                    if (i.index() < shards && (!i.state().equals("RUNNING") || !alive)) {
                        down.add("shard " + i.index() + " " + i.state() + (alive ? "" : " (pid " + i.pid() + " gone)"));
                    }
                }
                if (down.isEmpty()) {
                    try (Connection c = home.proxy("").getConnection(); Statement s = c.createStatement()) {
                        s.execute("SELECT 1");
                        return null;
                    }
                }
                last = String.join(", ", down);
            } catch (RuntimeException | SQLException e) {
                last = String.valueOf(e.getMessage());
            }
            Thread.sleep(250);
        }
        return last;
    }
}
