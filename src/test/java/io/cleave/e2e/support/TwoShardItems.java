package io.cleave.e2e.support;

import java.io.IOException;

/**
 * A table of items sharded by id over two shards in two ranges, ids 1-99 on shard 0 and 100 on
 * on shard 1, for tests that need both shards and must know which one holds a row:
 * {@code items(id, v, s)} with rows 1-200, v = 0 and s a string of a chosen length.
 */
public final class TwoShardItems {

    /** The sharding section of the home's config. */
    public static final String SHARDING = """
            sharding:
              keyspaces:
                - name: item
                  function: range
                  ranges:
                    - { from: 1, to: 99, shard: 0 }
                    - { from: 100, shard: 1 }
              tables:
                - { name: items, keyspace: item, column: id }
            """;

    private TwoShardItems() {
    }

    /** Creates {@code database} and its items through the proxy; each row's s is {@code sLength} characters. */
    public static void create(RawMysqlClient proxy, String database, int sLength) throws IOException {
        ok(proxy, "CREATE DATABASE " + database);
        ok(proxy, "CREATE TABLE " + database + ".items (id INT PRIMARY KEY, v INT NOT NULL, s VARCHAR(2000))");
        StringBuilder rows = new StringBuilder();
        for (int id = 1; id <= 200; id++) {
            rows.append(id == 1 ? "" : ",").append('(').append(id).append(", 0, RPAD('row ").append(id).append("', ")
                    .append(sLength).append(", '.'))");
        }
        ok(proxy, "INSERT INTO " + database + ".items (id, v, s) VALUES " + rows);
    }

    private static void ok(RawMysqlClient c, String sql) throws IOException {
        byte[] answer = c.query(sql);
        if (!RawMysqlClient.isOk(answer)) {
            throw new IOException(sql.substring(0, Math.min(80, sql.length())) + ": " + RawMysqlClient.describe(answer));
        }
    }
}
