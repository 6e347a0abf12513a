package io.cleave.bench.chaos;

import io.cleave.bench.jdbc.JdbcTarget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * A client writing single rows in autocommit: keys of its own (k mod clients = its index) in
 * kv_hashed and the tables shard-table moves, with a value that only grows, by
 * INSERT ... ON DUPLICATE KEY UPDATE, REPLACE or UPDATE. Each answer goes to the ledger; a
 * statement that got no answer (its connection lost) is unknown. Some writes are read back at
 * once on another connection: an acknowledged write must be what a later read returns.
 */
final class UpsertClient extends WorkloadClient {
    private static final int READ_BACK_ONE_IN = 4;
    /**
     * Errors after which an autocommit statement certainly did not apply (lock wait timeout,
     * deadlock, duplicate key, no backend connection in time, refused, syntax); after any other
     * (a lost connection, a shard that went away mid-statement) it may have.
     */
    private static final java.util.Set<Integer> NOT_APPLIED = java.util.Set.of(1205, 1213, 1062, 3024, 1235, 1064);
    private static final String[] WRITES = {
        "INSERT INTO %s (k, v, writer) VALUES (?, ?, ?) ON DUPLICATE KEY UPDATE v = VALUES(v), writer = VALUES(writer)",
        "REPLACE INTO %s (k, v, writer) VALUES (?, ?, ?)",
        "UPDATE %s SET v = ?, writer = ? WHERE k = ?"};

    private final int index;
    private final int clients;
    private final KvTables tables;
    private final UpsertLedger ledger;
    private long value;

    UpsertClient(int index, int clients, ChaosContext context, JdbcTarget proxy, KvTables tables, UpsertLedger ledger) {
        super("upsert", index, context, index % 2 == 0 ? proxy.withServerPreparedStatements() : proxy);
        this.index = index;
        this.clients = clients;
        this.tables = tables;
        this.ledger = ledger;
    }

    @Override
    void unit() throws SQLException {
        List<String> all = tables.tables();
        String table = random.nextInt(2) == 0 ? KvTables.HASHED : all.get(random.nextInt(all.size()));
        int keys = tables.keys(table);
        int mine = (keys - index - 1) / clients + 1;
        if (mine <= 0) {
            return;
        }
        long k = index + 1 + (long) clients * random.nextInt(mine);
        long v = ++value;
        int shape = random.nextInt(WRITES.length);
        Connection c = connection();
        try (PreparedStatement ps = c.prepareStatement(String.format(WRITES[shape], table))) {
            if (shape == 2) {
                ps.setLong(1, v);
                ps.setInt(2, index);
                ps.setLong(3, k);
            } else {
                ps.setLong(1, k);
                ps.setLong(2, v);
                ps.setInt(3, index);
            }
            ps.executeUpdate();
        } catch (SQLException e) {
            if (!NOT_APPLIED.contains(e.getErrorCode())) {
                ledger.unknown(table, k, v);
            }
            throw e;
        }
        long ack = context.clock().millis();
        ledger.acknowledged(table, k, v, ack);
        if (random.nextInt(READ_BACK_ONE_IN) == 0) {
            readBack(table, k, v, ack);
        }
    }

    private void readBack(String table, long k, long v, long ack) {
        context.counts().readBacks.incrementAndGet();
        try (PreparedStatement ps = readBack().prepareStatement("SELECT v FROM " + table + " WHERE k = ?")) {
            ps.setLong(1, k);
            try (ResultSet rs = ps.executeQuery()) {
                Long found = rs.next() ? rs.getLong(1) : null;
                if (found == null || found != v) {
                    missed(ack, table + " key " + k + ": " + v + " was acknowledged, a read sent after found "
                        + (found == null ? "no row" : found.toString()));
                }
            }
        } catch (SQLException e) {
            context.errors().add(context.clock().millis(), "upsert read-back", e);
            readBackLost();
        }
    }
}
