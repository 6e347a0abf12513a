package io.cleave.proxy.frontend;

import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.plan.KeyValue;
import io.cleave.router.plan.ParameterValues;
import io.cleave.router.plan.Plan;
import io.cleave.router.unique.UniqueIndex;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * What a split INSERT's rows hold for the table's global unique keys, and each row's sharding
 * key, taken from the statement's values before anything waits (the loop's buffers are reused
 * meanwhile): per key, row and column the value as SQL text that reads alike in every session
 * ({@link io.cleave.router.plan.PortableLiterals}; null for NULL), as a placement key
 * (null where it does not convert exactly) and as text for an error message. A column the rows
 * leave out is filled in later with the ids the proxy draws for it ({@link #generated}).
 */
final class UniqueRows {

    final List<UniqueIndex> indexes;
    final int rows;
    final byte[][][][] sql;
    final ShardKey[][][] keys;
    final String[][][] text;
    /** Per row: its sharding key as SQL text and as a key; null until drawn when the rows leave it out. */
    final byte[][] keySql;
    final ShardKey[] key;
    private final String[][] pending;

    private UniqueRows(List<UniqueIndex> indexes, int rows) {
        this.indexes = indexes;
        this.rows = rows;
        int n = indexes.size();
        sql = new byte[n][rows][][];
        keys = new ShardKey[n][rows][];
        text = new String[n][rows][];
        pending = new String[n][];
        keySql = new byte[rows][];
        key = new ShardKey[rows];
        for (int x = 0; x < n; x++) {
            int columns = indexes.get(x).columns().size();
            pending[x] = new String[columns];
            for (int r = 0; r < rows; r++) {
                sql[x][r] = new byte[columns][];
                keys[x][r] = new ShardKey[columns];
                text[x][r] = new String[columns];
            }
        }
    }

    /**
     * Takes the values of the rows. {@code tableColumns}: the table's columns in order when the
     * statement has no column list, else null; {@code keyType} that of the sharding column.
     */
    static UniqueRows of(Plan.InsertSplit split, ParameterValues values, List<UniqueIndex> indexes,
                         List<String> tableColumns, KeyType keyType, String shardingColumn) {
        List<String> names = split.columns().isEmpty() ? tableColumns : split.columns();
        UniqueRows u = new UniqueRows(indexes, split.rows().size());
        int keyPosition = indexOf(names, shardingColumn);
        for (int x = 0; x < indexes.size(); x++) {
            UniqueIndex index = indexes.get(x);
            for (int c = 0; c < index.columns().size(); c++) {
                int position = indexOf(names, index.columns().get(c));
                if (position < 0) {
                    u.pending[x][c] = index.columns().get(c);
                    continue;
                }
                for (int r = 0; r < u.rows; r++) {
                    Plan.InsertRow row = split.rows().get(r);
                    if (row.nulls().contains(position)) {
                        continue;
                    }
                    KeyValue value = position < row.values().size() ? row.values().get(position) : null;
                    if (value instanceof KeyValue.SlotValue slot) {
                        if (values.isNull(slot.slot())) {
                            continue;
                        }
                        u.sql[x][r][c] = sql(values, slot);
                        u.keys[x][r][c] = index.types().get(c) == null ? null : key(values, slot, index.types().get(c));
                        String t = values.text(slot.slot());
                        u.text[x][r][c] = (slot.negated() ? "-" : "") + t;
                    } else {
                        // An expression or DEFAULT: its value is the server's to compute.
                        u.pending[x][c] = index.columns().get(c) + " (given as an expression or DEFAULT)";
                    }
                }
            }
        }
        if (keyPosition >= 0) {
            for (int r = 0; r < u.rows; r++) {
                Plan.InsertRow row = split.rows().get(r);
                KeyValue value = row.key() != null ? row.key()
                        : keyPosition < row.values().size() ? row.values().get(keyPosition) : null;
                if (value instanceof KeyValue.SlotValue slot && !values.isNull(slot.slot())) {
                    u.keySql[r] = sql(values, slot);
                    u.key[r] = key(values, slot, keyType);
                }
            }
        }
        return u;
    }

    /**
     * An UPDATE's one "row": the values it assigns to the keys' columns ({@code assigned}, by
     * lower-case column; a column set to NULL is in {@code nulls}) for the rows of sharding key
     * {@code shardingKey}. Null when it does not set every column of a key it touches.
     */
    static UniqueRows ofUpdate(ParameterValues values, List<UniqueIndex> indexes, java.util.Map<String, KeyValue> assigned,
                               java.util.Set<String> nulls, KeyValue shardingKey, KeyType keyType) {
        UniqueRows u = new UniqueRows(indexes, 1);
        for (int x = 0; x < indexes.size(); x++) {
            UniqueIndex index = indexes.get(x);
            for (int c = 0; c < index.columns().size(); c++) {
                String column = index.columns().get(c).toLowerCase(java.util.Locale.ROOT);
                if (nulls.contains(column)) {
                    continue;
                }
                if (!(assigned.get(column) instanceof KeyValue.SlotValue slot)) {
                    return null;
                }
                if (values.isNull(slot.slot())) {
                    continue;
                }
                u.sql[x][0][c] = sql(values, slot);
                u.keys[x][0][c] = index.types().get(c) == null ? null : key(values, slot, index.types().get(c));
                u.text[x][0][c] = (slot.negated() ? "-" : "") + values.text(slot.slot());
            }
        }
        if (!(shardingKey instanceof KeyValue.SlotValue slot) || values.isNull(slot.slot())) {
            return null;
        }
        u.keySql[0] = sql(values, slot);
        u.key[0] = key(values, slot, keyType);
        return u;
    }

    /** The rows got ids drawn for {@code column} (their sharding key, or another AUTO_INCREMENT column). */
    void generated(String column, long[] ids, boolean shardingKey) {
        if (shardingKey) {
            for (int r = 0; r < rows; r++) {
                keySql[r] = Long.toString(ids[r]).getBytes(StandardCharsets.US_ASCII);
                key[r] = ShardKey.of(ids[r]);
            }
        }
        for (int x = 0; x < indexes.size(); x++) {
            for (int c = 0; c < pending[x].length; c++) {
                if (column.equalsIgnoreCase(pending[x][c])) {
                    pending[x][c] = null;
                    for (int r = 0; r < rows; r++) {
                        sql[x][r][c] = Long.toString(ids[r]).getBytes(StandardCharsets.US_ASCII);
                        keys[x][r][c] = ShardKey.of(ids[r]);
                        text[x][r][c] = Long.toString(ids[r]);
                    }
                }
            }
        }
    }

    /** Why the rows cannot keep the keys' lookups right (a column of a key left out or computed), or null. */
    String refusal() {
        for (int x = 0; x < indexes.size(); x++) {
            for (String column : pending[x]) {
                if (column != null) {
                    return "an INSERT into " + indexes.get(x).table() + " must give every column of its unique key "
                            + indexes.get(x).name() + " as a value (NULL included): " + column
                            + " is not, so the key could not be enforced across shards";
                }
            }
        }
        for (int r = 0; r < rows; r++) {
            if (key[r] == null) {
                return "row " + (r + 1) + " of the INSERT into " + indexes.get(0).table() + " has a sharding key the"
                        + " lookup of its unique keys cannot record";
            }
        }
        return null;
    }

    /** Whether row {@code r} has a value for key {@code x} (no column NULL: InnoDB allows any number of those). */
    boolean entered(int x, int r) {
        for (byte[] v : sql[x][r]) {
            if (v == null) {
                return false;
            }
        }
        return true;
    }

    /** The value as one server's 1062 message shows it: the columns joined by '-'. */
    String shown(int x, int r) {
        return String.join("-", text[x][r]);
    }

    private static int indexOf(List<String> names, String column) {
        if (names == null) {
            return -1;
        }
        for (int i = 0; i < names.size(); i++) {
            if (names.get(i).equalsIgnoreCase(column)) {
                return i;
            }
        }
        return -1;
    }

    /** The value as SQL that reads alike in the client's session and in Cleave's procedure ({@link io.cleave.proxy.unique.LookupCalls}). */
    private static byte[] sql(ParameterValues values, KeyValue.SlotValue slot) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        if (slot.negated()) {
            out.write('-');
            out.write(' ');
        }
        values.appendPortableSql(slot.slot(), out);
        return out.toByteArray();
    }

    private static ShardKey key(ParameterValues values, KeyValue.SlotValue slot, KeyType type) {
        ShardKey k = values.key(slot.slot(), type);
        if (k == null || !slot.negated()) {
            return k;
        }
        return k instanceof ShardKey.IntKey i && i.value() != Long.MIN_VALUE ? ShardKey.of(-i.value()) : null;
    }
}
