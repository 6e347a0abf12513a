package io.cleave.router.unique;

import io.cleave.router.keyspace.KeyType;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * A unique key of a sharded table that leaves out the table's sharding column (users.email of
 * users sharded by id): no shard can enforce it alone, so a lookup table holds one row per value,
 * {@code (columns..., cleave_key)}, whose primary key is the unique key, spread over
 * {@code lookupShards} shards by the value ({@link LookupPlacement}). {@code cleave_key} is the
 * sharding key of the row that holds the value, never its shard: a move of the row's key leaves
 * the lookup as it is.
 *
 * @param types per column, how its values convert to a placement key: {@link KeyType#INTEGER},
 *              {@link KeyType#STRING}, or null for another type (DATE, DECIMAL, ...), whose
 *              equality the proxy does not model: a key with such a column keeps its lookup rows
 *              on one shard, where the server itself compares them
 */
public record UniqueIndex(String schema, String table, String name, List<String> columns, List<KeyType> types,
                          String shardingColumn, String lookupTable, int lookupShards) {

    /** The column of a lookup row holding the sharding key of the row that has the value. */
    public static final String KEY_COLUMN = "cleave_key";

    public UniqueIndex {
        columns = List.copyOf(columns);
        types = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(types));
        if (columns.isEmpty() || columns.size() != types.size()) {
            throw new IllegalArgumentException("unique key " + name + " of " + table + " needs a type per column");
        }
    }

    /** Every column of a type whose equal values the proxy places alike. */
    public boolean spread() {
        return !types.contains(null);
    }

    /** The lookup table's name in the {@code cleave} schema: readable, and at most 64 characters. */
    public static String lookupName(String schema, String table, String key) {
        String name = ("u_" + schema + "_" + table + "_" + key).toLowerCase(Locale.ROOT);
        if (name.length() <= 64 && name.chars().allMatch(c -> c < 128)) {
            return name;
        }
        long h = 0xcbf29ce484222325L;
        for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
            h = (h ^ (b & 0xff)) * 0x100000001b3L;
        }
        String ascii = name.replaceAll("[^a-z0-9_]", "_");
        return ascii.substring(0, Math.min(ascii.length(), 47)) + "_" + String.format("%016x", h);
    }

    /** The lookup table, quoted, in the {@code cleave} schema. */
    public String qualifiedLookup() {
        return "cleave.`" + lookupTable.replace("`", "``") + "`";
    }

    /** The lookup table's name as people read it. */
    public String shownLookup() {
        return "cleave." + lookupTable;
    }

    /** The position of {@code column} in the key, or -1. */
    public int indexOf(String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).equalsIgnoreCase(column)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public String toString() {
        return name + " (" + String.join(", ", columns) + ") of " + schema + "." + table;
    }
}
