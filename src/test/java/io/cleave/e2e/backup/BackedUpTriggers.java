package io.cleave.e2e.backup;

import io.cleave.e2e.support.QueryRows;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Triggers and an event a backup must carry, made through the proxy as an application makes them, all
 * with the definer {@code auditor@localhost} (an account of the shards): a trigger on the sharded
 * {@code bank.accounts} (on every shard, stamping each new row with who audited it, under its own
 * sql_mode), one on the unsharded {@code bank.notes} writing an audit row into {@code bank.note_audit}
 * (on the default shard; left out where there is no notes table), and an event on the default shard.
 * Needs BankTransfers' accounts (and BackupRestoreIT's notes).
 */
public final class BackedUpTriggers {

    static final String DEFINER = "auditor@localhost";
    static final String ACCOUNTS_SQL_MODE = "NO_ENGINE_SUBSTITUTION";

    private BackedUpTriggers() {
    }

    /** The definer's account, made on one shard (as the test makes its client accounts). */
    public static void makeDefiner(Statement shard) throws SQLException {
        shard.execute("CREATE USER 'auditor'@'localhost' IDENTIFIED BY 'auditor-secret'");
        shard.execute("GRANT SELECT, INSERT, UPDATE, DELETE, TRIGGER, EVENT ON bank.* TO 'auditor'@'localhost'");
    }

    /**
     * The triggers and the event, through the proxy; with {@code notes}, one note inserted after, so
     * note_audit holds one row.
     */
    public static void create(Connection proxy, boolean notes) throws SQLException {
        try (Statement s = proxy.createStatement()) {
            s.execute("CREATE TABLE bank.note_audit (id INT AUTO_INCREMENT PRIMARY KEY, note_id BIGINT UNSIGNED NOT NULL,"
                    + " by_user VARCHAR(80) NOT NULL)");
            s.execute("SET SESSION sql_mode = '" + ACCOUNTS_SQL_MODE + "'");
            s.execute("CREATE DEFINER = 'auditor'@'localhost' TRIGGER bank.accounts_stamp BEFORE INSERT ON bank.accounts"
                    + " FOR EACH ROW SET NEW.pad = CONCAT('audited by ', CURRENT_USER())");
            s.execute("SET SESSION sql_mode = DEFAULT");
            s.execute("CREATE DEFINER = 'auditor'@'localhost' EVENT bank.trim_audit ON SCHEDULE EVERY 1 DAY"
                    + " DO DELETE FROM bank.note_audit WHERE note_id = 0");
            if (!notes) {
                return;
            }
            s.execute("CREATE DEFINER = 'auditor'@'localhost' TRIGGER bank.notes_audit AFTER INSERT ON bank.notes"
                    + " FOR EACH ROW INSERT INTO bank.note_audit (note_id, by_user) VALUES (NEW.id, CURRENT_USER())");
            s.execute("INSERT INTO bank.notes (id, title) VALUES (500, 'before the backup')");
        }
    }

    /**
     * In a restored home of {@code shards} shards (default shard 0): both triggers on every shard with their
     * definer (and the sharded one's sql_mode), the event on the default shard only, the audit row written
     * before the backup there once (the restore's own inserts fired nothing), and both triggers fire on
     * INSERTs through the restored proxy ({@code branches}: one branch the restored map puts on each shard).
     * {@code eventStatus}: ENABLED, or SLAVESIDE_DISABLED on a standby's replica.
     */
    public static void assertKept(List<Connection> shardConnections, Connection proxy, int[] branches, String eventStatus,
                                  boolean notes, String what) throws SQLException {
        for (int s = 0; s < shardConnections.size(); s++) {
            Connection c = shardConnections.get(s);
            assertThat(QueryRows.of(c, "SELECT TRIGGER_NAME, DEFINER FROM information_schema.TRIGGERS WHERE TRIGGER_SCHEMA = 'bank'"
                    + " ORDER BY TRIGGER_NAME")).as("%s: triggers on shard %d", what, s)
                    .isEqualTo(notes ? List.of("accounts_stamp " + DEFINER, "notes_audit " + DEFINER)
                            : List.of("accounts_stamp " + DEFINER));
            assertThat(QueryRows.of(c, "SELECT SQL_MODE FROM information_schema.TRIGGERS WHERE TRIGGER_NAME = 'accounts_stamp'"))
                    .as("%s: the sql_mode accounts_stamp was made under, shard %d", what, s).containsExactly(ACCOUNTS_SQL_MODE);
            assertThat(QueryRows.of(c, "SELECT EVENT_NAME, DEFINER, STATUS FROM information_schema.EVENTS WHERE EVENT_SCHEMA = 'bank'"))
                    .as("%s: events on shard %d", what, s)
                    .isEqualTo(s == 0 ? List.of("trim_audit " + DEFINER + " " + eventStatus) : List.of());
        }
        if (proxy == null) {
            return;
        }
        try (Statement st = proxy.createStatement()) {
            assertThat(QueryRows.of(proxy, "SELECT note_id, by_user FROM bank.note_audit")).as("%s: audit rows restored", what)
                    .containsExactly("500 " + DEFINER);
            st.execute("INSERT INTO bank.notes (id, title) VALUES (501, 'after the restore')");
            assertThat(QueryRows.of(proxy, "SELECT note_id, by_user FROM bank.note_audit ORDER BY id")).as("%s: audit rows", what)
                    .containsExactly("500 " + DEFINER, "501 " + DEFINER);
            for (int branch : branches) {
                st.execute("INSERT INTO bank.accounts (branch, id, balance, pad) VALUES (" + branch + ", 1000000, 0, 'x')");
                assertThat(QueryRows.of(proxy, "SELECT pad FROM bank.accounts WHERE branch = " + branch + " AND id = 1000000"))
                        .as("%s: a new account of branch %d", what, branch).containsExactly("audited by " + DEFINER);
            }
        }
    }

    /**
     * The accounts trigger fires on {@code shard} itself (a standby's replica, written by a user allowed to
     * past read_only): an insert of {@code branch}'s, rolled back (so nothing reaches the binlog).
     */
    public static void assertFiresOn(Connection shard, int branch, String what) throws SQLException {
        try (Statement st = shard.createStatement()) {
            st.execute("BEGIN");
            try {
                st.execute("INSERT INTO bank.accounts (branch, id, balance, pad) VALUES (" + branch + ", 1000000, 0, 'x')");
                assertThat(QueryRows.of(shard, "SELECT pad FROM bank.accounts WHERE branch = " + branch + " AND id = 1000000"))
                        .as("%s: a new account of branch %d", what, branch).containsExactly("audited by " + DEFINER);
            } finally {
                st.execute("ROLLBACK");
            }
        }
    }
}
