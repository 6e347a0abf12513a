package io.cleave.e2e.unique;

import io.cleave.e2e.support.RunningDaemon;
import io.cleave.router.keyspace.HashShardFunction;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.unique.LookupPlacement;
import io.cleave.router.unique.UniqueIndex;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The lookup table of {@code gu.users}' unique key {@code email} (users sharded by id over a hash
 * keyspace of 64 buckets), read on the shards themselves, and the invariant the proxy keeps: every
 * row's value has a lookup row naming the row's key (lookup rows without a row may exist).
 */
final class UniqueLookups {

    static final String SHARDING = """
            sharding:
              keyspaces:
                - { name: uid, function: hash, buckets: 64, key_type: integer }
              tables:
                - { name: users, keyspace: uid, column: id }
            """;
    static final String TABLE = "CREATE TABLE gu.users (id INT NOT NULL PRIMARY KEY, email VARCHAR(64) UNIQUE,"
            + " name VARCHAR(20))";
    static final String LOOKUP = "cleave." + UniqueIndex.lookupName("gu", "users", "email");

    private UniqueLookups() {
    }

    /** The shard of a users row with {@code id} under the first shard map ({@code shards} shards). */
    static int rowShard(int id, int shards) {
        return new HashShardFunction(64, KeyType.INTEGER).bucketOf(ShardKey.of(id)) * shards / 64;
    }

    /** The shard of the lookup row of {@code email}. */
    static int lookupShard(String email, int shards) {
        UniqueIndex index = new UniqueIndex("gu", "users", "email", List.of("email"), List.of(KeyType.STRING), "id",
                UniqueIndex.lookupName("gu", "users", "email"), shards);
        return LookupPlacement.shardOf(index, List.of(ShardKey.ofString(email)));
    }

    /** Every lookup row on every shard: value to the keys naming it (one, unless the lookup is broken). */
    static Map<String, List<Long>> lookupRows(RunningDaemon daemon, int shards) throws SQLException {
        return lookupRows(daemon, shards, "gu", "users");
    }

    /** The same for the key {@code email} of {@code schema.table}. */
    static Map<String, List<Long>> lookupRows(RunningDaemon daemon, int shards, String schema, String table)
            throws SQLException {
        Map<String, List<Long>> out = new HashMap<>();
        for (int s = 0; s < shards; s++) {
            try (Connection c = daemon.connect(s); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT email, cleave_key FROM cleave."
                         + UniqueIndex.lookupName(schema, table, "email"))) {
                while (rs.next()) {
                    out.computeIfAbsent(rs.getString(1).toLowerCase(), k -> new ArrayList<>()).add(rs.getLong(2));
                }
            }
        }
        return out;
    }

    /** Rows (id, email) read through the proxy. */
    static Map<Long, String> rows(Connection proxy) throws SQLException {
        return rows(proxy, "gu.users");
    }

    /** Rows (id, email) of {@code table} (schema-qualified) read through the proxy. */
    static Map<Long, String> rows(Connection proxy, String table) throws SQLException {
        Map<Long, String> out = new HashMap<>();
        try (Statement st = proxy.createStatement();
             ResultSet rs = st.executeQuery("SELECT id, email FROM " + table + " WHERE email IS NOT NULL")) {
            while (rs.next()) {
                out.put(rs.getLong(1), rs.getString(2).toLowerCase());
            }
        }
        return out;
    }

    /** What breaks the invariant: rows without a lookup row naming them, and values with two lookup rows. */
    static List<String> violations(RunningDaemon daemon, Connection proxy, int shards) throws SQLException {
        return violations(daemon, proxy, shards, "gu", "users");
    }

    /** The same for the key {@code email} of {@code schema.table}, keyed by {@code id}. */
    static List<String> violations(RunningDaemon daemon, Connection proxy, int shards, String schema, String table)
            throws SQLException {
        Map<String, List<Long>> lookup = lookupRows(daemon, shards, schema, table);
        List<String> out = new ArrayList<>();
        Map<String, Long> seen = new HashMap<>();
        for (Map.Entry<Long, String> row : rows(proxy, schema + "." + table).entrySet()) {
            List<Long> keys = lookup.getOrDefault(row.getValue(), List.of());
            if (!keys.equals(List.of(row.getKey()))) {
                out.add("row " + row.getKey() + " (" + row.getValue() + ") has lookup rows " + keys);
            }
            Long other = seen.put(row.getValue(), row.getKey());
            if (other != null) {
                out.add("rows " + other + " and " + row.getKey() + " both hold " + row.getValue());
            }
        }
        return out;
    }
}
