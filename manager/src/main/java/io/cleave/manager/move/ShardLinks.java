package io.cleave.manager.move;

import io.cleave.manager.daemon.ShardEndpoint;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * JDBC connections to the shards for the mover's own work (copy, catch-up, verify, cleanup), and
 * to servers attached for an import. Shards come and go while the daemon runs ({@code cleave scale}).
 */
public final class ShardLinks {

    private final Map<Integer, ShardEndpoint> shards = new ConcurrentHashMap<>();

    public ShardLinks(List<ShardEndpoint> shards) {
        for (ShardEndpoint e : shards) {
            put(e);
        }
    }

    /** Reaches {@code endpoint}'s shard (added, or attached) from now on. */
    public void put(ShardEndpoint endpoint) {
        shards.put(endpoint.index(), endpoint);
    }

    public boolean has(int shard) {
        return shards.containsKey(shard);
    }

    public void remove(int shard) {
        shards.remove(shard);
    }

    public ShardEndpoint endpoint(int shard) {
        ShardEndpoint e = shards.get(shard);
        if (e == null) {
            throw new IllegalArgumentException("there is no shard " + shard);
        }
        return e;
    }

    /**
     * A connection for a move's own writes on a shard whose clients write the same tables (a
     * target before and after its cutover, a source while its moved rows are cleaned up). The move
     * writes only rows no client writes on that shard, picked by key ({@link KeyedDelete}), so it
     * never waits for a client holding what it holds. READ COMMITTED keeps its plain reads free of
     * locks and takes no gap locks: at REPEATABLE READ its writes would lock the gaps next to the
     * rows they write, where clients insert.
     */
    public Connection openForWrites(int shard) throws SQLException {
        Connection c = open(shard);
        try (java.sql.Statement s = c.createStatement()) {
            s.execute("SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED");
        } catch (SQLException e) {
            c.close();
            throw e;
        }
        return c;
    }

    public Connection open(int shard) throws SQLException {
        ShardEndpoint e = shards.get(shard);
        if (e == null) {
            throw new SQLException("there is no shard " + shard, "08000");
        }
        return DriverManager.getConnection("jdbc:mysql://" + e.host() + ":" + e.port()
                + "/?sslMode=DISABLED&allowPublicKeyRetrieval=true&rewriteBatchedStatements=true&connectTimeout=3000"
                + "&useServerPrepStmts=false", e.user(), e.secret());
    }
}
