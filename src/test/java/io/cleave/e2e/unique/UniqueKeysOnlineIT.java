package io.cleave.e2e.unique;

import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A move and a scale while clients write a table with a global unique key: one client inserts new
 * values (every one must go in), another inserts values the first already committed under other
 * keys (every one must get 1062) and reads rows back by the key (each exactly once, through the
 * lookup). Afterwards every row has its lookup row and no value is held twice.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UniqueKeysOnlineIT {

    private static final int SHARDS = 2;

    private CleaveTestHome home;
    private RunningDaemon daemon;

    @BeforeAll
    void start() throws Exception {
        home = CleaveTestHome.builder().shards(SHARDS)
                .extraYaml(UniqueLookups.SHARDING + "    - { name: later, keyspace: uid, column: id }\n").create();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE gu");
            s.execute(UniqueLookups.TABLE);
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

    @Test
    void aMoveAndAScaleUnderUniqueInsertsLetNoDuplicateInAndRefuseNoValidInsert() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger committed = new AtomicInteger();
        AtomicInteger duplicatesRefused = new AtomicInteger();
        AtomicInteger readsChecked = new AtomicInteger();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        CompletableFuture<Void> inserts = CompletableFuture.runAsync(() -> {
            try (Connection c = daemon.connectProxy("gu", ""); Statement s = c.createStatement()) {
                for (int i = 1; !stop.get(); i++) {
                    try {
                        s.executeUpdate("INSERT INTO users VALUES (" + i + ", 'v" + i + "@x', 'n')");
                        committed.set(i);
                    } catch (SQLException e) {
                        failures.add("valid insert " + i + " refused: " + e.getErrorCode() + " " + e.getMessage());
                    }
                }
            } catch (SQLException e) {
                failures.add("inserting client: " + e.getMessage());
            }
        });
        CompletableFuture<Void> duplicates = CompletableFuture.runAsync(() -> {
            try (Connection c = daemon.connectProxy("gu", ""); Statement s = c.createStatement()) {
                while (!stop.get()) {
                    int last = committed.get();
                    if (last == 0) {
                        Thread.sleep(20);
                        continue;
                    }
                    int j = 1 + ThreadLocalRandom.current().nextInt(last);
                    try {
                        s.executeUpdate("INSERT INTO users VALUES (" + (1_000_000 + j) + ", 'v" + j + "@x', 'dup')");
                        failures.add("duplicate v" + j + "@x went in");
                    } catch (SQLException e) {
                        if (e.getErrorCode() == 1062 && e.getMessage().equals("Duplicate entry 'v" + j + "@x' for key 'email'")) {
                            duplicatesRefused.incrementAndGet();
                        } else {
                            failures.add("duplicate v" + j + "@x: " + e.getErrorCode() + " " + e.getMessage());
                        }
                    }
                    try (ResultSet rs = s.executeQuery("SELECT id FROM users WHERE email = 'v" + j + "@x'")) {
                        List<Integer> ids = new java.util.ArrayList<>();
                        while (rs.next()) {
                            ids.add(rs.getInt(1));
                        }
                        if (!ids.equals(List.of(j))) {
                            failures.add("reading v" + j + "@x by the key gave " + ids);
                        }
                        readsChecked.incrementAndGet();
                    }
                }
            } catch (Exception e) {
                failures.add("duplicating client: " + e);
            }
        });
        try {
            while (committed.get() < 50) {
                Thread.sleep(50);
            }
            CleaveJar.Result move = CleaveJar.run(home, "move", "uid", "bucket:0-31", "--to", "1", "--wait");
            assertThat(move.code()).as(move.out()).isZero();
            CleaveJar.Result scale = CleaveJar.run(home, "scale", "--shards", "3", "--wait");
            assertThat(scale.code()).as(scale.out()).isZero();
            Thread.sleep(500);
        } finally {
            stop.set(true);
            CompletableFuture.allOf(inserts, duplicates).get(60, TimeUnit.SECONDS);
        }
        assertThat(failures).isEmpty();
        assertThat(duplicatesRefused.get()).isPositive();
        assertThat(readsChecked.get()).isPositive();
        try (Connection c = daemon.connectProxy("gu", "")) {
            // The lookup stayed on the shards it was made on, and every value is still found by it.
            assertThat(UniqueLookups.violations(daemon, c, SHARDS)).isEmpty();
            assertThat(UniqueLookups.rows(c)).hasSize(committed.get());
            try (Statement s = c.createStatement()) {
                for (int from = 1; from <= committed.get(); from += 200) {
                    StringBuilder in = new StringBuilder();
                    List<Integer> expected = new java.util.ArrayList<>();
                    for (int j = from; j < from + 200 && j <= committed.get(); j++) {
                        in.append(in.length() == 0 ? "'" : ", '").append('v').append(j).append("@x'");
                        expected.add(j);
                    }
                    List<Integer> found = new java.util.ArrayList<>();
                    try (ResultSet rs = s.executeQuery("SELECT id FROM users WHERE email IN (" + in + ") ORDER BY id")) {
                        while (rs.next()) {
                            found.add(rs.getInt(1));
                        }
                    }
                    assertThat(found).as("rows read by the key after the scale").isEqualTo(expected);
                }
                // A key made after the scale spreads its lookup over the three shards.
                s.execute("CREATE TABLE later (id INT NOT NULL PRIMARY KEY, code INT UNIQUE)");
                StringBuilder rows = new StringBuilder();
                for (int i = 1; i <= 30; i++) {
                    rows.append(i == 1 ? "" : ", ").append('(').append(i).append(", ").append(i * 7).append(')');
                }
                s.executeUpdate("INSERT INTO later VALUES " + rows);
                int lookupShards = 0;
                for (int shard = 0; shard < 3; shard++) {
                    try (Connection sc = daemon.connect(shard); Statement ss = sc.createStatement();
                         ResultSet rs = ss.executeQuery("SELECT COUNT(*) FROM cleave."
                                 + io.cleave.router.unique.UniqueIndex.lookupName("gu", "later", "code"))) {
                        rs.next();
                        lookupShards += rs.getInt(1) > 0 ? 1 : 0;
                    }
                }
                int registered;
                try (Connection sc = daemon.connect(0); Statement ss = sc.createStatement();
                     ResultSet rs = ss.executeQuery("SELECT lookup_shards FROM cleave.unique_keys WHERE schema_name = 'gu'"
                             + " AND table_name = 'later'")) {
                    registered = rs.next() ? rs.getInt(1) : -1;
                }
                assertThat(lookupShards).as("shards holding lookup rows of later.code (its lookup registered over "
                        + registered + " shards)").isEqualTo(3);
                int other = 31;
                while (UniqueLookups.rowShard(other, SHARDS) == UniqueLookups.rowShard(1, SHARDS)) {
                    other++;
                }
                int id = other;
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.executeUpdate("INSERT INTO later VALUES ("
                        + id + ", 7)")).isInstanceOf(SQLException.class).hasMessage("Duplicate entry '7' for key 'code'");
            }
        }
        CleaveJar.Result down = CleaveJar.run(home, "scale", "--shards", "1");
        assertThat(down.code()).as(down.out()).isEqualTo(2);
        assertThat(down.out()).contains("the lookup of the global unique key code of gu.later is spread over shards 0-2");
    }
}
