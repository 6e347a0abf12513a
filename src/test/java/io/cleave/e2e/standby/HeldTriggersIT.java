package io.cleave.e2e.standby;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.ServerMatrix;
import io.cleave.manager.held.HeldTables;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A refused database's table with triggers of its own, held on a real shard ({@link HeldTables}, what a promotion
 * runs on an import it cut short): MariaDB renames no table with a trigger out of its database, and such a table
 * was emptied in place, so a view of another database read it as empty with no error. Now its triggers are kept
 * aside with it: the view fails with the server's own error, and putting the table back (an import run again)
 * makes them again, same definition, same order, same sql_mode; dropping the database forgets them.
 */
@ServerMatrix
class HeldTriggersIT {

    private static CleaveTestHome home;
    private static RunningDaemon daemon;

    @BeforeAll
    static void start() throws Exception {
        home = CleaveTestHome.builder().shards(1).create();
        daemon = home.start();
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
    void aTableWithTriggersIsHeldWithThemAndGetsThemBack() throws Exception {
        try (Connection c = daemon.connect(0); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE imported");
            s.execute("CREATE TABLE imported.orders (id INT PRIMARY KEY, amount INT, stamped INT)");
            s.execute("CREATE TABLE imported.audit (id INT AUTO_INCREMENT PRIMARY KEY, order_id INT)");
            s.execute("USE imported");
            // Two BEFORE INSERT triggers (their order matters), one AFTER, one made under a sql_mode of its own.
            s.execute("CREATE TRIGGER orders_stamp BEFORE INSERT ON orders FOR EACH ROW SET NEW.stamped = 1");
            s.execute("CREATE TRIGGER orders_double BEFORE INSERT ON orders FOR EACH ROW SET NEW.stamped = NEW.stamped * 2");
            s.execute("SET SESSION sql_mode = 'ANSI_QUOTES'");
            s.execute("CREATE TRIGGER orders_audit AFTER INSERT ON orders FOR EACH ROW INSERT INTO \"audit\" (order_id)"
                    + " VALUES (NEW.id)");
            s.execute("SET SESSION sql_mode = DEFAULT");
            s.execute("INSERT INTO orders (id, amount) VALUES (1, 10), (2, 20)");
            s.execute("CREATE DATABASE reports");
            s.execute("CREATE VIEW reports.totals AS SELECT COUNT(*) AS n, SUM(amount) AS total FROM imported.orders");
        }
        List<String[]> before = triggers();
        assertThat(before).hasSize(3);

        try (Connection c = daemon.connect(0)) {
            assertThat(HeldTables.hold(c, "imported", Set.of("orders", "audit"))).containsExactlyInAnyOrder("orders", "audit");
        }
        // Held, not emptied in place: the view of the other database fails instead of answering no rows.
        try (Connection c = daemon.connect(0); Statement s = c.createStatement()) {
            assertThatThrownBy(() -> s.executeQuery("SELECT n, total FROM reports.totals").next())
                    .as("the view over the held table").isInstanceOf(SQLException.class)
                    .satisfies(e -> assertThat(((SQLException) e).getErrorCode()).isEqualTo(1356));
            assertThat(count(s, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'imported'")).isZero();
            assertThat(count(s, "SELECT COUNT(*) FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = 'imported'")).isZero();
            assertThat(count(s, "SELECT COUNT(*) FROM cleave.held_triggers WHERE schema_name = 'imported'")).isEqualTo(3);
            // Holding again (a promotion that stopped half way runs it again) keeps them once.
            assertThat(HeldTables.hold(c, "imported", Set.of("orders", "audit"))).isEmpty();
            assertThat(count(s, "SELECT COUNT(*) FROM cleave.held_triggers WHERE schema_name = 'imported'")).isEqualTo(3);
        }

        // Put back (the import runs again): emptied, with every trigger as it was, firing in the same order.
        try (Connection c = daemon.connect(0)) {
            assertThat(HeldTables.restore(c, "imported")).containsExactlyInAnyOrder("orders", "audit");
        }
        List<String[]> after = triggers();
        assertThat(after).hasSameSizeAs(before);
        for (int i = 0; i < before.size(); i++) {
            assertThat(after.get(i)).as("trigger %s", before.get(i)[0]).containsExactly(before.get(i));
        }
        try (Connection c = daemon.connect(0); Statement s = c.createStatement()) {
            assertThat(count(s, "SELECT COUNT(*) FROM imported.orders")).as("the cut-short rows are gone").isZero();
            s.execute("INSERT INTO imported.orders (id, amount) VALUES (3, 30)");
            assertThat(count(s, "SELECT stamped FROM imported.orders WHERE id = 3")).as("stamp, then double").isEqualTo(2);
            assertThat(count(s, "SELECT COUNT(*) FROM imported.audit WHERE order_id = 3")).isEqualTo(1);
            assertThat(count(s, "SELECT n FROM reports.totals")).isEqualTo(1);
            assertThat(count(s, "SELECT COUNT(*) FROM cleave.held_triggers")).isZero();
        }

        // Held again and the database dropped: the kept triggers go with the held tables.
        try (Connection c = daemon.connect(0); Statement s = c.createStatement()) {
            HeldTables.hold(c, "imported", Set.of("orders", "audit"));
            s.execute("DROP DATABASE imported");
            assertThat(HeldTables.drop(c, "imported")).containsExactlyInAnyOrder("orders", "audit");
            assertThat(count(s, "SELECT COUNT(*) FROM cleave.held_triggers")).isZero();
            assertThat(count(s, "SELECT COUNT(*) FROM cleave.held_tables")).isZero();
        }
    }

    /** Each trigger of imported.orders in firing order: name, timing, SHOW CREATE TRIGGER's statement and sql_mode. */
    private static List<String[]> triggers() throws SQLException {
        List<String[]> out = new ArrayList<>();
        try (Connection c = daemon.connect(0); Statement s = c.createStatement()) {
            List<String> names = new ArrayList<>();
            try (ResultSet r = s.executeQuery("SELECT TRIGGER_NAME FROM information_schema.TRIGGERS WHERE"
                    + " EVENT_OBJECT_SCHEMA = 'imported' AND EVENT_OBJECT_TABLE = 'orders'"
                    + " ORDER BY ACTION_TIMING, EVENT_MANIPULATION, ACTION_ORDER")) {
                while (r.next()) {
                    names.add(r.getString(1));
                }
            }
            for (String name : names) {
                try (ResultSet r = s.executeQuery("SHOW CREATE TRIGGER imported." + name)) {
                    r.next();
                    out.add(new String[] {name, r.getString("sql_mode"), r.getString("SQL Original Statement")});
                }
            }
        }
        return out;
    }

    private static long count(Statement s, String sql) throws SQLException {
        try (ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }
}
