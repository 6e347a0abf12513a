package io.cleave.e2e.unique;

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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * CREATE UNIQUE INDEX of a key without the sharding column on a table that already has rows: the
 * proxy builds the key's lookup from the rows while clients insert, update and delete, then
 * enforces the key across shards; rows that already break the key make the statement fail with
 * the server's 1062 and leave no index and no lookup behind.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class UniqueKeyBuildIT {

    private static final int SHARDS = 2;
    private static final int ROWS = 3000;
    private static final String SHARDING = UniqueLookups.SHARDING
            + "    - { name: people, keyspace: uid, column: id }\n";

    private CleaveTestHome home;
    private RunningDaemon daemon;

    @BeforeAll
    void start() throws Exception {
        home = CleaveTestHome.builder().shards(SHARDS).extraYaml(SHARDING).create();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE gu");
            s.execute("CREATE TABLE gu.users (id INT NOT NULL PRIMARY KEY, email VARCHAR(64), name VARCHAR(20))");
            s.execute("CREATE TABLE gu.people (id INT NOT NULL PRIMARY KEY, email VARCHAR(64))");
            for (int from = 1; from <= ROWS; from += 500) {
                StringBuilder insert = new StringBuilder("INSERT INTO gu.users VALUES ");
                for (int i = from; i < from + 500; i++) {
                    // Every tenth row has no address: NULLs are not values of the key.
                    insert.append(i == from ? "" : ", ").append('(').append(i).append(", ")
                            .append(i % 10 == 0 ? "NULL" : "'r" + i + "@x'").append(", 'n')");
                }
                s.executeUpdate(insert.toString());
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

    @Test
    void aKeyAddedToATableWithRowsIsBuiltWhileClientsWriteAndEnforcedAcrossShards() throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger inserted = new AtomicInteger();
        AtomicInteger changed = new AtomicInteger();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        CompletableFuture<Void> inserts = CompletableFuture.runAsync(() -> {
            try (Connection c = daemon.connectProxy("gu", ""); Statement s = c.createStatement()) {
                for (int i = 1; !stop.get(); i++) {
                    try {
                        s.executeUpdate("INSERT INTO users VALUES (" + (100_000 + i) + ", 'w" + i + "@x', 'new')");
                        inserted.incrementAndGet();
                    } catch (SQLException e) {
                        failures.add("insert " + i + ": " + e.getErrorCode() + " " + e.getMessage());
                    }
                }
            } catch (SQLException e) {
                failures.add("inserting client: " + e.getMessage());
            }
        });
        CompletableFuture<Void> changes = CompletableFuture.runAsync(() -> {
            try (Connection c = daemon.connectProxy("gu", ""); Statement s = c.createStatement()) {
                for (int i = 1; !stop.get() && i < ROWS; i += 7) {
                    try {
                        // A new address for an old row (claimed once the key is known), and an old row gone.
                        s.executeUpdate("UPDATE users SET email = 'u" + i + "@x' WHERE id = " + i);
                        s.executeUpdate("DELETE FROM users WHERE id = " + (i + 3));
                        changed.incrementAndGet();
                    } catch (SQLException e) {
                        failures.add("change " + i + ": " + e.getErrorCode() + " " + e.getMessage());
                    }
                }
            } catch (SQLException e) {
                failures.add("changing client: " + e.getMessage());
            }
        });
        try {
            while (inserted.get() < 20) {
                Thread.sleep(20);
            }
            try (Connection c = daemon.connectProxy("gu", ""); Statement s = c.createStatement()) {
                s.execute("CREATE UNIQUE INDEX email ON users (email)");
            }
            int after = inserted.get();
            while (inserted.get() < after + 20) {
                Thread.sleep(20);
            }
        } finally {
            stop.set(true);
            CompletableFuture.allOf(inserts, changes).get(60, TimeUnit.SECONDS);
        }
        assertThat(failures).isEmpty();
        assertThat(changed.get()).isPositive();
        try (Connection c = daemon.connectProxy("gu", ""); Statement s = c.createStatement()) {
            assertThat(UniqueLookups.violations(daemon, c, SHARDS)).isEmpty();
            // r12@x's row (which the changing client leaves alone) is on one shard; a row of a key on the
            // other shard may not take it.
            int other = 200_000;
            while (UniqueLookups.rowShard(other, SHARDS) == UniqueLookups.rowShard(12, SHARDS)) {
                other++;
            }
            int id = other;
            assertThatThrownBy(() -> s.executeUpdate("INSERT INTO users VALUES (" + id + ", 'R12@x', 'dup')"))
                    .isInstanceOf(SQLException.class).hasMessage("Duplicate entry 'R12@x' for key 'email'");
            s.executeUpdate("INSERT INTO users VALUES (" + id + ", 'fresh@x', 'ok'), (" + (id + 1) + ", NULL, 'ok')");
            try (ResultSet rs = s.executeQuery("SELECT id FROM users WHERE email = 'r12@x'")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getInt(1)).isEqualTo(12);
                assertThat(rs.next()).isFalse();
            }
            try (ResultSet rs = s.executeQuery("EXPLAIN CLEAVE SELECT id FROM users WHERE email = 'r12@x'")) {
                StringBuilder plan = new StringBuilder();
                while (rs.next()) {
                    plan.append(rs.getString(1)).append(' ').append(rs.getString(2)).append('\n');
                }
                assertThat(plan.toString()).contains(UniqueLookups.LOOKUP);
            }
        }
        try (Connection shard0 = daemon.connect(0); Statement s = shard0.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM cleave.unique_key_builds")) {
            rs.next();
            assertThat(rs.getInt(1)).as("builds under way").isZero();
        }
    }

    @Test
    void aKeyTheRowsAlreadyBreakIsRefusedWithTheDuplicateAndLeavesNothingBehind() throws Exception {
        int a = 1;
        int b = 2;
        while (UniqueLookups.rowShard(b, SHARDS) == UniqueLookups.rowShard(a, SHARDS)) {
            b++;
        }
        try (Connection c = daemon.connectProxy("gu", ""); Statement s = c.createStatement()) {
            StringBuilder insert = new StringBuilder("INSERT INTO people VALUES ");
            for (int i = 1000; i < 1400; i++) {
                insert.append('(').append(i).append(", 'p").append(i).append("@x'), ");
            }
            insert.append('(').append(a).append(", 'same@x'), (").append(b).append(", 'same@x')");
            s.executeUpdate(insert.toString());
            assertThatThrownBy(() -> s.execute("CREATE UNIQUE INDEX email ON people (email)"))
                    .isInstanceOf(SQLException.class).hasMessage("Duplicate entry 'same@x' for key 'email'")
                    .extracting(e -> ((SQLException) e).getErrorCode()).isEqualTo(1062);
            // As on one server: no key, so the table takes the same value once more.
            s.executeUpdate("INSERT INTO people VALUES (5000, 'p1000@x')");
        }
        String lookup = io.cleave.router.unique.UniqueIndex.lookupName("gu", "people", "email");
        for (int shard = 0; shard < SHARDS; shard++) {
            try (Connection c = daemon.connect(shard); Statement s = c.createStatement()) {
                List<String> indexes = new ArrayList<>();
                try (ResultSet rs = s.executeQuery("SELECT INDEX_NAME FROM information_schema.STATISTICS"
                        + " WHERE TABLE_SCHEMA = 'gu' AND TABLE_NAME = 'people'")) {
                    while (rs.next()) {
                        indexes.add(rs.getString(1));
                    }
                }
                assertThat(indexes).as("indexes on shard " + shard).containsOnly("PRIMARY");
                try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM information_schema.TABLES"
                        + " WHERE TABLE_SCHEMA = 'cleave' AND TABLE_NAME = '" + lookup + "'")) {
                    rs.next();
                    assertThat(rs.getInt(1)).as("lookup on shard " + shard).isZero();
                }
            }
        }
        try (Connection shard0 = daemon.connect(0); Statement s = shard0.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM cleave.unique_keys WHERE table_name = 'people'")) {
            rs.next();
            assertThat(rs.getInt(1)).isZero();
        }
    }
}
