package io.cleave.e2e.onesrv;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.ServerMatrix;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What one server accepts on unsharded data works through the proxy of two shards: stored
 * procedures and functions with compound bodies (CALL with OUT parameters and several results, in
 * the text and binary protocols, Connector/J's CallableStatement, a driver's SET-then-CALL in one
 * query), MariaDB sequences, reads of no table, application XA. Every table but {@code orders}
 * (hashed by customer, for a procedure declared to take a key) has no rule: it lives on the default
 * shard, and shard 1 must never see its rows.
 */
@ServerMatrix
class OneServerIT {

    private static CleaveTestHome home;
    private static RunningDaemon daemon;

    @BeforeAll
    static void start() throws Exception {
        home = CleaveTestHome.builder().shards(2).extraYaml("""
                sharding:
                  keyspaces:
                    - { name: customer, function: hash, buckets: 16, key_type: integer }
                  tables:
                    - { name: orders, keyspace: customer, column: cust }
                  routines:
                    - { name: add_order, keyspace: customer, parameter: c }
                """).create();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE app");
            s.execute("USE app");
            s.execute("CREATE TABLE notes (id INT AUTO_INCREMENT PRIMARY KEY, body VARCHAR(40))");
            s.execute("CREATE TABLE orders (cust INT, n INT, PRIMARY KEY (cust, n))");
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

    private static Connection proxy(String extra) throws SQLException {
        return daemon.connectProxy("app", extra);
    }

    /** Rows of app.{@code table} on {@code shard}, read from the shard itself. */
    private static long rowsOnShard(int shard, String table) throws SQLException {
        try (Connection c = daemon.connect(shard); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT COUNT(*) FROM app." + table)) {
            r.next();
            return r.getLong(1);
        }
    }

    @Test
    void aProcedureWithACompoundBodyRunsOnTheDefaultShardWithItsResultsAndOutParameters() throws Exception {
        try (Connection c = proxy("allowMultiQueries=true"); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE calls_log (id INT AUTO_INCREMENT PRIMARY KEY, body VARCHAR(60))");
            s.execute("CREATE PROCEDURE log_and_count(IN what VARCHAR(40), OUT total INT)\n"
                    + "BEGIN\n"
                    + "  DECLARE n INT DEFAULT 0;\n"
                    + "  INSERT INTO calls_log (body) VALUES (what);\n"
                    + "  SELECT COUNT(*) INTO n FROM calls_log;\n"
                    + "  IF n > 0 THEN SET total = n; ELSE SET total = -1; END IF;\n"
                    + "  SELECT body FROM calls_log WHERE body = what;\n"
                    + "  SELECT n AS counted;\n"
                    + "END;");
            assertThat(s.execute("CALL log_and_count('first', @t)")).isTrue();
            List<String> results = new ArrayList<>();
            do {
                try (ResultSet r = s.getResultSet()) {
                    if (r != null) {
                        while (r.next()) {
                            results.add(r.getString(1));
                        }
                    }
                }
            } while (s.getMoreResults() || s.getUpdateCount() != -1);
            assertThat(results).containsExactly("first", "1");
            try (ResultSet r = s.executeQuery("SELECT @t")) {
                r.next();
                assertThat(r.getInt(1)).as("the OUT parameter, read on whatever connection serves the session").isEqualTo(1);
            }
            // A driver's callproc in one query: SET the arguments, CALL with them.
            s.execute("SET @`_log_and_count_0`='second',@`_log_and_count_1`=NULL;"
                    + "CALL `log_and_count`(@`_log_and_count_0`,@`_log_and_count_1`)");
            while (s.getMoreResults() || s.getUpdateCount() != -1) {
                // every result the procedure sends, then CALL's own OK
            }
            try (ResultSet r = s.executeQuery("SELECT @`_log_and_count_1`")) {
                r.next();
                assertThat(r.getInt(1)).isEqualTo(2);
            }
        }
        for (String extra : List.of("useServerPrepStmts=false", "useServerPrepStmts=true")) {
            try (Connection c = proxy(extra); CallableStatement call = c.prepareCall("{call log_and_count(?, ?)}")) {
                call.setString(1, "via " + extra);
                call.registerOutParameter(2, Types.INTEGER);
                call.execute();
                assertThat(call.getInt(2)).as(extra).isGreaterThanOrEqualTo(3);
            }
        }
        assertThat(rowsOnShard(0, "calls_log")).isEqualTo(4);
        assertThat(rowsOnShard(1, "calls_log")).as("the procedure ran on the default shard only").isZero();
        try (Connection c = proxy(""); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT id FROM calls_log ORDER BY id")) {
            List<Integer> ids = new ArrayList<>();
            while (r.next()) {
                ids.add(r.getInt(1));
            }
            assertThat(ids).as("AUTO_INCREMENT inside the procedure counts by one, as on one server")
                    .containsExactly(1, 2, 3, 4);
        }
    }

    @Test
    void aFunctionWithACompoundBodyAnswersOnTheDefaultShard() throws Exception {
        try (Connection c = proxy(""); Statement s = c.createStatement()) {
            s.execute("CREATE FUNCTION twice_plus(x INT) RETURNS INT DETERMINISTIC\n"
                    + "BEGIN\n  DECLARE y INT;\n  SET y = x * 2;\n  RETURN y + 1;\nEND");
            for (int i = 0; i < 4; i++) {
                try (ResultSet r = s.executeQuery("SELECT twice_plus(" + i + ")")) {
                    r.next();
                    assertThat(r.getInt(1)).isEqualTo(2 * i + 1);
                }
            }
        }
    }

    @Test
    void aProcedureDeclaredToTakeAKeyRunsOnItsShardAndOneOverShardedRowsIsRefused() throws Exception {
        try (Connection c = proxy(""); Statement s = c.createStatement()) {
            s.execute("CREATE PROCEDURE add_order(IN c INT, IN k INT) BEGIN INSERT INTO orders VALUES (c, k); END");
            s.execute("CREATE PROCEDURE count_orders() BEGIN SELECT COUNT(*) FROM orders; END");
            for (int cust = 1; cust <= 20; cust++) {
                s.execute("CALL add_order(" + cust + ", 1)");
            }
            try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM orders")) {
                r.next();
                assertThat(r.getInt(1)).isEqualTo(20);
            }
            assertThat(rowsOnShard(0, "orders") + rowsOnShard(1, "orders")).isEqualTo(20);
            assertThat(rowsOnShard(0, "orders")).as("customers on both shards").isPositive().isLessThan(20);
            assertThatThrownBy(() -> s.execute("CALL count_orders()")).isInstanceOfSatisfying(SQLException.class,
                    e -> {
                        assertThat(e.getErrorCode()).isEqualTo(1235);
                        assertThat(e.getMessage()).contains("CALL count_orders").contains("orders, sharded by cust");
                    });
        }
    }

    @Test
    void sequencesCountOnTheDefaultShardAsOnOneServer() throws Exception {
        try (Connection c = proxy(""); Statement s = c.createStatement()) {
            s.execute("CREATE SEQUENCE rs3");
            List<Long> values = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                try (ResultSet r = s.executeQuery("SELECT NEXTVAL(rs3)")) {
                    r.next();
                    values.add(r.getLong(1));
                }
            }
            assertThat(values).containsExactly(1L, 2L, 3L, 4L);
            try (ResultSet r = s.executeQuery("SELECT LASTVAL(rs3), PREVIOUS VALUE FOR rs3")) {
                r.next();
                assertThat(r.getLong(1)).isEqualTo(4);
                assertThat(r.getLong(2)).isEqualTo(4);
            }
            for (int i = 0; i < 4; i++) {
                try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM information_schema.TABLES"
                        + " WHERE TABLE_SCHEMA = 'app' AND TABLE_TYPE = 'SEQUENCE'")) {
                    r.next();
                    assertThat(r.getInt(1)).isEqualTo(1);
                }
            }
            s.execute("CREATE SEQUENCE rs2 START WITH 100");
            s.execute("CREATE TABLE tagged (id INT PRIMARY KEY DEFAULT NEXTVAL(rs2), v INT)");
            s.execute("CREATE TABLE orders_tagged (cust INT, tag BIGINT DEFAULT NEXTVAL(rs2), PRIMARY KEY (cust, tag))");
            s.execute("INSERT INTO tagged (v) VALUES (1), (2)");
            s.execute("INSERT INTO orders_tagged (cust) VALUES (1), (2), (3)");
            try (ResultSet r = s.executeQuery("SELECT id FROM tagged UNION ALL SELECT tag FROM orders_tagged ORDER BY 1")) {
                List<Long> ids = new ArrayList<>();
                while (r.next()) {
                    ids.add(r.getLong(1));
                }
                assertThat(ids).containsExactly(100L, 101L, 102L, 103L, 104L);
            }
        }
    }

    @Test
    void readsOfNoTableAnswerAsOneServer() throws Exception {
        try (Connection c = proxy(""); Statement s = c.createStatement()) {
            for (int i = 0; i < 4; i++) {
                try (ResultSet r = s.executeQuery("SELECT @@auto_increment_increment, @@auto_increment_offset")) {
                    r.next();
                    assertThat(r.getInt(1)).isEqualTo(1);
                    assertThat(r.getInt(2)).isEqualTo(1);
                }
            }
            List<String> schemas = new ArrayList<>();
            try (ResultSet r = s.executeQuery("SHOW DATABASES")) {
                while (r.next()) {
                    schemas.add(r.getString(1));
                }
            }
            assertThat(schemas).contains("app", "information_schema").doesNotContain("cleave");
        }
    }

    @Test
    void anApplicationsXaTransactionCommitsInTwoPhasesFromAnySession() throws Exception {
        try (Connection a = proxy(""); Statement s = a.createStatement()) {
            s.execute("XA START 'app-x1'");
            s.execute("INSERT INTO notes (body) VALUES ('xa one')");
            s.execute("XA END 'app-x1'");
            s.execute("XA PREPARE 'app-x1'");
            assertThatThrownBy(() -> s.execute("XA COMMIT 'nope'")).isInstanceOfSatisfying(SQLException.class,
                    e -> assertThat(e.getErrorCode()).isEqualTo(1397));
        }
        try (Connection b = proxy(""); Statement s = b.createStatement()) {
            List<String> prepared = new ArrayList<>();
            try (ResultSet r = s.executeQuery("XA RECOVER")) {
                while (r.next()) {
                    prepared.add(r.getString(4));
                }
            }
            assertThat(prepared).containsExactly("app-x1");
            s.execute("XA COMMIT 'app-x1'");
            try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM notes WHERE body = 'xa one'")) {
                r.next();
                assertThat(r.getInt(1)).isEqualTo(1);
            }
            s.execute("XA START 'app-x2'");
            s.execute("INSERT INTO notes (body) VALUES ('xa two')");
            assertThatThrownBy(() -> s.execute("COMMIT")).isInstanceOfSatisfying(SQLException.class,
                    e -> assertThat(e.getErrorCode()).isEqualTo(1399));
            s.execute("XA END 'app-x2'");
            s.execute("XA ROLLBACK 'app-x2'");
            try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM notes WHERE body = 'xa two'")) {
                r.next();
                assertThat(r.getInt(1)).isZero();
            }
            try (ResultSet r = s.executeQuery("XA RECOVER")) {
                assertThat(r.next()).as("nothing left prepared").isFalse();
            }
        }
    }
}
