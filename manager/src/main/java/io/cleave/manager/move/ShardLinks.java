package io.cleave.manager.move;

import io.cleave.manager.daemon.ShardEndpoint;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;

/** JDBC connections to the shards for the mover's own work (copy, catch-up, verify, cleanup). */
public final class ShardLinks {

    private final List<ShardEndpoint> shards;

    public ShardLinks(List<ShardEndpoint> shards) {
        this.shards = List.copyOf(shards);
    }

    public int count() {
        return shards.size();
    }

    public ShardEndpoint endpoint(int shard) {
        return shards.get(shard);
    }

    public Connection open(int shard) throws SQLException {
        ShardEndpoint e = shards.get(shard);
        return DriverManager.getConnection("jdbc:mysql://" + e.host() + ":" + e.port()
                + "/?sslMode=DISABLED&allowPublicKeyRetrieval=true&rewriteBatchedStatements=true&connectTimeout=3000"
                + "&useServerPrepStmts=false", e.user(), e.secret());
    }
}
