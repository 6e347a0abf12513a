package io.cleave.bench.chaos;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The upserted tables: {@code kv_hashed}, hashed by key over the shards from the start, and
 * {@code kv_u1..kv_u4}, which start on shard 0 and are what {@code cleave shard-table} gets to
 * move (to another shard, sharded by key, or copied to every shard as a reference table). Every
 * key exists from the start with value 0, so a key found nowhere is a lost row.
 */
public record KvTables(int hashedKeys) {
    public static final String HASHED = "kv_hashed";
    public static final List<String> MOVABLE = List.of("kv_u1", "kv_u2", "kv_u3", "kv_u4");
    /** The hash keyspace of kv_hashed, and the one shard-table shards the others by. */
    public static final String KEYSPACE = "kv";
    public static final int BUCKETS = 64;

    public List<String> tables() {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(HASHED), MOVABLE.stream()).toList();
    }

    /** Keys 1..keys(table). */
    public int keys(String table) {
        return table.equals(HASHED) ? hashedKeys : Math.max(8, hashedKeys / 4);
    }

    /** Creates the tables through the proxy and inserts every key with value 0. */
    public void load(Connection proxy) throws SQLException {
        try (Statement s = proxy.createStatement()) {
            for (String table : tables()) {
                s.execute("CREATE TABLE IF NOT EXISTS " + table + " (k BIGINT NOT NULL PRIMARY KEY, v BIGINT NOT NULL,"
                    + " writer INT NOT NULL, pad VARCHAR(64) NOT NULL DEFAULT '') ENGINE=InnoDB");
                StringBuilder sql = new StringBuilder();
                for (int k = 1; k <= keys(table); k++) {
                    sql.append(sql.length() == 0 ? "INSERT INTO " + table + " (k, v, writer) VALUES " : ",")
                        .append('(').append(k).append(",0,-1)");
                    if (k % 500 == 0 || k == keys(table)) {
                        s.executeUpdate(sql.toString());
                        sql.setLength(0);
                    }
                }
            }
        }
    }
}
