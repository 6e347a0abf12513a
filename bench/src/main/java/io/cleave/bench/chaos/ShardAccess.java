package io.cleave.bench.chaos;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Shards read directly, as the shard account: what the checks see, without the proxy in between. */
public interface ShardAccess {
    DataSource shard(int shard, String database);

    default Connection open(int shard, String database) throws SQLException {
        return shard(shard, database).getConnection();
    }
}
