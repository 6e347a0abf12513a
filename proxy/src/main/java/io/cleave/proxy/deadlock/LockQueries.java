package io.cleave.proxy.deadlock;

import io.cleave.proxy.backend.ServerInfo;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a server shows its lock waits, by flavour and version. MariaDB (every version) and MySQL
 * before 8.0 keep {@code information_schema.INNODB_LOCK_WAITS} and {@code INNODB_LOCKS}; MySQL 8
 * moved them to {@code performance_schema.data_lock_waits} and {@code data_locks}. All of them
 * have {@code INNODB_TRX} with each transaction's server thread, weight and running statement.
 * Only MariaDB has a query id to kill one statement by ({@code KILL QUERY ID}).
 *
 * <p>Every query answers in text columns: waits as (waiting thread, blocking thread, lock mode,
 * lock type, table, index); transactions as (thread, trx id, weight, statement, query id).
 */
enum LockQueries {

    INFORMATION_SCHEMA(
            "SELECT r.trx_mysql_thread_id, b.trx_mysql_thread_id, l.lock_mode, l.lock_type, l.lock_table, l.lock_index"
                    + " FROM information_schema.INNODB_LOCK_WAITS w"
                    + " JOIN information_schema.INNODB_TRX r ON r.trx_id = w.requesting_trx_id"
                    + " JOIN information_schema.INNODB_TRX b ON b.trx_id = w.blocking_trx_id"
                    + " LEFT JOIN information_schema.INNODB_LOCKS l ON l.lock_id = w.requested_lock_id",
            "SELECT t.trx_mysql_thread_id, t.trx_id, t.trx_weight, t.trx_query, NULL"
                    + " FROM information_schema.INNODB_TRX t",
            false),

    MARIADB(INFORMATION_SCHEMA.waits,
            "SELECT t.trx_mysql_thread_id, t.trx_id, t.trx_weight, t.trx_query, p.QUERY_ID"
                    + " FROM information_schema.INNODB_TRX t"
                    + " LEFT JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id",
            true),

    PERFORMANCE_SCHEMA(
            "SELECT r.trx_mysql_thread_id, b.trx_mysql_thread_id, l.LOCK_MODE, l.LOCK_TYPE,"
                    + " CONCAT('`', l.OBJECT_SCHEMA, '`.`', l.OBJECT_NAME, '`'), l.INDEX_NAME"
                    + " FROM performance_schema.data_lock_waits w"
                    + " JOIN information_schema.INNODB_TRX r ON r.trx_id = w.REQUESTING_ENGINE_TRANSACTION_ID"
                    + " JOIN information_schema.INNODB_TRX b ON b.trx_id = w.BLOCKING_ENGINE_TRANSACTION_ID"
                    + " LEFT JOIN performance_schema.data_locks l ON l.ENGINE_LOCK_ID = w.REQUESTING_ENGINE_LOCK_ID",
            INFORMATION_SCHEMA.transactions,
            false);

    private static final Pattern VERSION = Pattern.compile("^(\\d+)\\.(\\d+)");

    private final String waits;
    private final String transactions;
    private final boolean killsByQueryId;

    LockQueries(String waits, String transactions, boolean killsByQueryId) {
        this.waits = waits;
        this.transactions = transactions;
        this.killsByQueryId = killsByQueryId;
    }

    static LockQueries forServer(ServerInfo server) {
        return forVersion(server.version());
    }

    /** By the version string a server's handshake gives, e.g. {@code 11.4.5-MariaDB} or {@code 8.0.36}. */
    static LockQueries forVersion(String version) {
        if (version.contains("MariaDB")) {
            return MARIADB;
        }
        Matcher m = VERSION.matcher(version);
        if (m.find() && Integer.parseInt(m.group(1)) >= 8) {
            return PERFORMANCE_SCHEMA;
        }
        return INFORMATION_SCHEMA;
    }

    String waits() {
        return waits;
    }

    String transactions() {
        return transactions;
    }

    /**
     * What stops the statement {@code thread} runs: by its query id where the server has one, so
     * a kill that arrives after the statement ended stops nothing; else by thread (MySQL has no
     * way to name one statement): if the statement ends in the moment before the kill arrives,
     * the kill may stop the connection's next statement instead.
     */
    String kill(long thread, Long queryId) {
        if (killsByQueryId && queryId != null) {
            return "KILL QUERY ID " + queryId;
        }
        return "KILL QUERY " + thread;
    }
}
