package io.cleave.e2e.fuzz;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.Leftovers;
import io.cleave.e2e.support.RawMysqlClient;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.TwoShardItems;
import io.cleave.manager.supervisor.InstanceState;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seeded protocol fuzzing of the proxy over two shards: connections that never log in (noise,
 * HTTP, damaged handshakes, oversized or unfinished frames, TLS junk) and logged-in connections
 * driven through stateful sequences (transactions across shards, cursors, long data,
 * COM_CHANGE_USER, COM_RESET_CONNECTION, pipelined bursts, damaged packets) that end every way a
 * client can end. Several clients run at once. What must hold:
 * <ul>
 *   <li>every connection the proxy closes on its own ends with an error packet (or the client's
 *       COM_QUIT, end of stream or TLS), and the proxy answers every well-formed command;</li>
 *   <li>a fresh client can always log in and read from each shard, and the in-use count of the
 *       backend pools never goes below zero;</li>
 *   <li>the daemon stays up, and afterwards no client connection is left in the proxy, no backend
 *       connection in use, and nothing open on the shards (innodb_trx, prepared XA branches).</li>
 * </ul>
 * About 3,000 packets by default; {@code -Dfuzz.count=N} for a longer run and {@code -Dfuzz.seed=S}
 * for other sequences (each connection's script is seeded by the seed and its number, both named
 * in a failure).
 */
class ProtocolFuzzIT {

    private static final long SEED = Long.getLong("fuzz.seed", 15L);
    private static final long PACKETS = Long.getLong("fuzz.count", 3_000L);
    private static final int CLIENTS = 10;

    private static CleaveTestHome home;
    private static RunningDaemon daemon;

    @BeforeAll
    static void start() throws Exception {
        home = CleaveTestHome.builder().shards(2)
                // Lock waits between fuzzing clients end quickly.
                .serverOption("innodb_lock_wait_timeout", "2")
                .proxyOption("connect_timeout_s", 1)
                .proxyOption("max_allowed_packet", "64K")
                .proxyOption("max_backend_connections_per_shard", 16)
                .proxyOption("backend_wait_timeout_ms", 3000)
                // Damaged handshakes fail logins by the hundred: throttling them would only slow the run.
                .proxyOption("failed_login_delay_ms", 0)
                .extraYaml(TwoShardItems.SHARDING)
                .create();
        daemon = home.start();
        try (RawMysqlClient c = RawMysqlClient.login(daemon.proxyPort(), "root", "", "")) {
            TwoShardItems.create(c, "fuzz", 20);
        }
    }

    @AfterAll
    static void stop() {
        if (daemon != null) {
            daemon.close();
        }
        if (home != null) {
            home.close();
        }
    }

    @Test
    void theProxyOutlivesDamagedAndAbandonedConnectionsAndLeavesNothingBehind() throws Exception {
        Queue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicLong packets = new AtomicLong();
        AtomicInteger scripts = new AtomicInteger();
        AtomicBoolean running = new AtomicBoolean(true);
        Thread probe = new Thread(() -> probe(running, failures), "fuzz-probe");
        probe.start();
        long started = System.nanoTime();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try {
            List<Future<?>> runs = new ArrayList<>();
            for (int i = 0; i < CLIENTS; i++) {
                runs.add(clients.submit(() -> {
                    while (packets.get() < PACKETS && failures.size() < 5) {
                        runScript(scripts.getAndIncrement(), packets, failures);
                    }
                    return null;
                }));
            }
            for (Future<?> run : runs) {
                run.get(10, TimeUnit.MINUTES);
            }
        } finally {
            clients.shutdownNow();
            running.set(false);
            probe.join();
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("protocol fuzz: seed %d, %d packets on %d connections from %d clients in %.1f s (%.0f packets/s)%n",
                SEED, packets.get(), scripts.get(), CLIENTS, seconds, packets.get() / seconds);
        assertThat(failures).as("seed %d", SEED).isEmpty();

        // Afterwards: every client connection gone, nothing held, nothing open on the shards.
        awaitNoClients();
        Leftovers.awaitNothingHeld(daemon, Duration.ofSeconds(30));
        for (int shard = 0; shard < 2; shard++) {
            assertThat(daemon.status(shard).state()).isEqualTo(InstanceState.RUNNING);
        }
        daemon.assertNoShardRestarted();
        assertThat(packets.get()).isGreaterThanOrEqualTo(PACKETS);
    }

    private static void runScript(int number, AtomicLong packets, Queue<String> failures) {
        long seed = SEED * 1_000_003L + number;
        Random random = new Random(seed);
        boolean loggedIn = random.nextInt(4) != 0;
        FuzzConnection conn = null;
        try {
            RawMysqlClient client = loggedIn ? RawMysqlClient.login(daemon.proxyPort(), "root", "", "fuzz")
                    : RawMysqlClient.open(daemon.proxyPort(), null);
            conn = new FuzzConnection(client, packets);
            if (loggedIn) {
                new SessionScript(random, conn).run(3 + random.nextInt(23));
            } else if (new PreAuthScript(random, conn).run()) {
                conn.endAndAwaitClose(true);
            }
            String bad = conn.badEnding();
            if (bad != null) {
                failures.add(report(number, seed, bad, conn));
            }
        } catch (FuzzConnection.Stalled e) {
            failures.add(report(number, seed, e.getMessage(), conn));
        } catch (Exception e) {
            failures.add(report(number, seed, e.toString(), conn));
        } finally {
            if (conn != null) {
                try {
                    conn.close();
                } catch (Exception ignored) {
                    // Already closed by its script.
                }
            }
        }
    }

    private static String report(int number, long seed, String what, FuzzConnection conn) {
        return "connection " + number + " (script seed " + seed + "): " + what
                + (conn == null ? "" : "\n    " + conn.transcript());
    }

    /** While the fuzzing runs: a fresh client logs in and reads from each shard; the pools' in-use counts stay >= 0. */
    private static void probe(AtomicBoolean running, Queue<String> failures) {
        boolean negativeSeen = false;
        while (running.get()) {
            try (RawMysqlClient c = RawMysqlClient.login(daemon.proxyPort(), "root", "", "fuzz")) {
                for (int id : new int[] {1, 150}) {
                    List<List<String>> rows = c.queryRows("SELECT id FROM items WHERE id = " + id);
                    if (!rows.equals(List.of(List.of(Integer.toString(id))))) {
                        failures.add("probe: reading id " + id + " returned " + rows);
                    }
                }
                for (int shard = 0; shard < 2; shard++) {
                    double inUse = daemon.metric("cleave_proxy_backend_connections{shard=\"" + shard
                            + "\",state=\"in_use\"}");
                    if (inUse < 0 && !negativeSeen) {
                        negativeSeen = true;
                        failures.add("probe: shard " + shard + " has " + inUse + " backend connections in use");
                    }
                }
            } catch (Exception e) {
                failures.add("probe: a fresh client failed: " + e);
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    private static void awaitNoClients() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        double clients;
        while ((clients = daemon.metric("cleave_proxy_client_connections")) != 0 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(clients).as("client connections the proxy still counts").isZero();
    }
}
