package io.cleave.proxy.accounts;

import java.util.ArrayList;
import java.util.List;

/**
 * Cleave's own schema on every shard, which no client account holds a privilege on: commit
 * decisions, sequences, the proxy's runs, the shard maps a standby replicates, and procedures that run as the shard account
 * (SQL SECURITY DEFINER) for what the proxy must do on a client's own connection:
 * <ul>
 * <li>{@link #DECIDE}: the decision row of a cross-shard commit goes in inside the coordinator's
 *     transaction, which runs on the client's connection; it takes only decisions of a proxy run
 *     recorded in {@code cleave.runs} (so nobody can insert rows blindly);</li>
 * <li>{@link #TEMPORARY_TABLE}: the temporary tables of a read evaluated on one shard are made on the
 *     client's connection (the statement then runs with the client's privileges), though the client
 *     may lack CREATE TEMPORARY TABLES; only while a shard-account connection holds the lock named
 *     for that connection ({@link #evaluationLock}), which the proxy takes for the evaluation alone.</li>
 * <li>{@link io.cleave.proxy.unique.LookupCalls#PROCEDURE}: the claims and reads of a global unique key's
 *     lookup, in the client's transaction, for statements the proxy sealed only.</li>
 * </ul>
 * All are granted to PUBLIC (MariaDB 10.11 and later), so every account can run them as the proxy
 * sends them; so is reading {@link #READ_VIEW}, an empty table whose read opens the read view of an
 * XA branch a cut joins (XA START has no WITH CONSISTENT SNAPSHOT) on the client's connection. The
 * proxy refuses client statements that name the schema.
 */
public final class CleaveSchema {

    public static final String NAME = "cleave";
    public static final String DECIDE = "cleave.decide";
    public static final String TEMPORARY_TABLE = "cleave.temporary_table";
    /**
     * Every shard map version a primary of a standby pair published, written on the default shard in
     * the step that publishes it, so replication carries it to the standby with the rows it routes.
     */
    public static final String SHARD_MAPS_DDL = "CREATE TABLE IF NOT EXISTS cleave.shard_maps (version BIGINT NOT NULL"
            + " PRIMARY KEY, map LONGTEXT CHARACTER SET utf8mb4 NOT NULL, written TIMESTAMP(6) NOT NULL DEFAULT"
            + " CURRENT_TIMESTAMP(6)) ENGINE=InnoDB";
    /** An empty table every account may read (see above). */
    public static final String READ_VIEW = "cleave.read_view";

    /**
     * One statement of the setup; an optional one may fail (a server without GRANT ... TO PUBLIC)
     * with a warning. {@code unless}: a query whose row means the statement is not needed, or null.
     */
    public record Step(String sql, boolean optional, String unless) {
        Step(String sql, boolean optional) {
            this(sql, optional, null);
        }
    }

    private CleaveSchema() {
    }

    /** Whether {@code schema} is Cleave's own (as a server compares database names on Linux: exactly). */
    public static boolean isCleave(String schema) {
        return NAME.equals(schema);
    }

    /** The message of 1044 for a client that names Cleave's schema as its database. */
    public static String refusal(String account) {
        return "Access denied for user " + account + " to database '" + NAME + "': it holds Cleave's own state"
                + " (commit decisions of cross-shard transactions, sequences), which no client may read, change or drop";
    }

    /** The lock a shard-account connection holds while the proxy evaluates a read on backend connection {@code connectionId}. */
    public static String evaluationLock(long connectionId) {
        return "cleave.evaluate." + connectionId;
    }

    /**
     * What prepares a shard for a proxy run {@code runId} (idempotent); {@code lookupSecret} seals
     * the run's lookup statements ({@link io.cleave.proxy.unique.LookupCalls}).
     */
    public static List<Step> setup(String runId, String lookupSecret, boolean mariadb) {
        List<Step> out = new ArrayList<>();
        out.add(new Step("CREATE DATABASE IF NOT EXISTS cleave", false));
        out.add(new Step("CREATE TABLE IF NOT EXISTS cleave.decisions (xid VARCHAR(128) NOT NULL PRIMARY KEY,"
                + " shards VARCHAR(255) NOT NULL, created TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6))"
                + " ENGINE=InnoDB", false));
        out.add(new Step("CREATE TABLE IF NOT EXISTS cleave.sequences (name VARCHAR(192) NOT NULL PRIMARY KEY,"
                + " next_value BIGINT NOT NULL) ENGINE=InnoDB", false));
        out.add(new Step("CREATE TABLE IF NOT EXISTS cleave.runs (run VARCHAR(64) NOT NULL PRIMARY KEY,"
                + " started TIMESTAMP(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6)) ENGINE=InnoDB", false));
        out.add(new Step(SHARD_MAPS_DDL, false));
        out.add(new Step("CREATE TABLE IF NOT EXISTS " + READ_VIEW + " (id TINYINT NOT NULL PRIMARY KEY) ENGINE=InnoDB",
                false));
        out.add(new Step(io.cleave.proxy.unique.UniqueIndexes.CATALOG_DDL, false));
        out.add(new Step(io.cleave.proxy.unique.UniqueIndexes.BUILDS_DDL, false));
        out.add(new Step("INSERT IGNORE INTO cleave.runs (run) VALUES ('" + runId.replace("'", "") + "')", false));
        if (!mariadb) {
            // MySQL has neither CREATE OR REPLACE PROCEDURE nor PUBLIC: the procedures are MariaDB's.
            return out;
        }
        out.add(procedure("decide", "IN xid VARCHAR(128), IN branches VARCHAR(255)",
                "records the decision of a cross-shard commit inside its coordinator's transaction",
                "BEGIN"
                + " IF xid NOT LIKE 'cleave:%' OR NOT EXISTS (SELECT 1 FROM cleave.runs"
                + " WHERE run = SUBSTRING_INDEX(SUBSTRING_INDEX(xid, ':', 3), ':', -1)) THEN"
                + " SIGNAL SQLSTATE '42000' SET MYSQL_ERRNO = 1370,"
                + " MESSAGE_TEXT = 'cleave.decide records the commit decisions of the proxy only';"
                + " END IF;"
                + " INSERT INTO cleave.decisions (xid, shards) VALUES (xid, branches);"
                + " END"));
        out.add(procedure("temporary_table", "IN mode VARCHAR(1024), IN ddl LONGTEXT CHARACTER SET utf8mb4",
                "creates the temporary tables of a read the proxy evaluates on one shard",
                "BEGIN"
                + " DECLARE holder BIGINT UNSIGNED DEFAULT IS_USED_LOCK(CONCAT('cleave.evaluate.', CONNECTION_ID()));"
                + " IF holder IS NULL OR ddl NOT LIKE 'CREATE TEMPORARY TABLE %' OR NOT EXISTS (SELECT 1"
                + " FROM information_schema.PROCESSLIST WHERE ID = holder"
                + " AND USER = SUBSTRING_INDEX(CURRENT_USER(), '@', 1)) THEN"
                + " SIGNAL SQLSTATE '42000' SET MYSQL_ERRNO = 1370,"
                + " MESSAGE_TEXT = 'cleave.temporary_table serves reads the proxy evaluates only';"
                + " END IF;"
                + " SET SESSION sql_mode = mode;"
                + " EXECUTE IMMEDIATE ddl;"
                + " END"));
        for (String sql : io.cleave.proxy.unique.LookupCalls.setup(lookupSecret)) {
            out.add(new Step(sql, false));
        }
        out.add(procedure("unique_lookup", io.cleave.proxy.unique.LookupCalls.PARAMETERS,
                "runs the proxy's sealed statements on the lookups of global unique keys in a client's transaction",
                io.cleave.proxy.unique.LookupCalls.BODY));
        out.add(new Step("GRANT EXECUTE ON PROCEDURE cleave.decide TO PUBLIC", true));
        out.add(new Step("GRANT EXECUTE ON PROCEDURE " + io.cleave.proxy.unique.LookupCalls.PROCEDURE + " TO PUBLIC", true));
        out.add(new Step("GRANT EXECUTE ON PROCEDURE cleave.temporary_table TO PUBLIC", true));
        out.add(new Step("GRANT SELECT ON " + READ_VIEW + " TO PUBLIC", true));
        return out;
    }

    /**
     * A procedure of Cleave's schema, run as its definer (the shard account). It is created only
     * when the shard lacks it as written here: its comment ends in a digest of its text, and
     * CREATE OR REPLACE drops it first, so a commit calling it from another connection meanwhile
     * (the setup runs again on a shard that comes back) would find no procedure, and then no grant.
     */
    private static Step procedure(String name, String parameters, String description, String body) {
        String comment = description + " [" + Integer.toHexString((parameters + description + body).hashCode()) + "]";
        String literal = "'" + comment.replace("'", "''") + "'";
        return new Step("CREATE OR REPLACE DEFINER = CURRENT_USER PROCEDURE " + NAME + "." + name + "(" + parameters
                + ") SQL SECURITY DEFINER MODIFIES SQL DATA COMMENT " + literal + " " + body, false,
                "SELECT 1 FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = '" + NAME + "' AND ROUTINE_NAME = '"
                        + name + "' AND ROUTINE_TYPE = 'PROCEDURE' AND ROUTINE_COMMENT = " + literal);
    }

    /** The statement that records a cross-shard commit's decision (on the coordinator, inside its transaction). */
    public static String decide(String quotedXid, String branches) {
        return "CALL " + DECIDE + "(" + quotedXid + ", '" + branches.replace("'", "") + "')";
    }

    /** The statement that creates a temporary table of an evaluation, with the session's sql_mode (DDL as a SQL literal). */
    public static String temporaryTable(String ddlLiteral) {
        return "CALL " + TEMPORARY_TABLE + "(@@session.sql_mode, " + ddlLiteral + ")";
    }
}
