package io.cleave.manager.unique;

import io.cleave.manager.move.Catalog;
import io.cleave.manager.move.Sql;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.unique.LookupTable;
import io.cleave.router.unique.UniqueIndex;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A global unique key of a table that a move makes sharded ({@code cleave shard-table}, {@code
 * cleave import}): a PRIMARY or UNIQUE key of the table that leaves out the column the new rule
 * shards it by, read from the server that holds the table before the move, with its lookup's
 * CREATE TABLE. The lookup is filled under the move's cutover ({@link LookupFill}).
 */
public record MovedKey(UniqueIndex index, String createLookup) {

    /** A key that cannot become a global unique key (a column prefix): the move is refused, with why. */
    public static final class Unsupported extends Exception {
        public Unsupported(String message) {
            super(message);
        }
    }

    /**
     * The table's unique keys without {@code shardingColumn}, their lookups spread over
     * {@code lookupShards} shards; empty when every key holds the column.
     */
    public static List<MovedKey> of(Connection c, String schema, String table, String shardingColumn, int lookupShards)
            throws SQLException, Unsupported {
        Map<String, List<String[]>> keys = new LinkedHashMap<>();
        for (String[] row : Catalog.aboutTable(c, "SELECT INDEX_NAME, COLUMN_NAME, IFNULL(SUB_PART, '')"
                + " FROM information_schema.STATISTICS WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND NON_UNIQUE = 0"
                + " ORDER BY INDEX_NAME = 'PRIMARY' DESC, INDEX_NAME, SEQ_IN_INDEX", schema, table)) {
            keys.computeIfAbsent(row[0], k -> new ArrayList<>()).add(new String[]{row[1], row[2]});
        }
        Map<String, String[]> types = new LinkedHashMap<>();
        for (String[] row : Catalog.aboutTable(c, "SELECT COLUMN_NAME, COLUMN_TYPE, DATA_TYPE,"
                + " IFNULL(CHARACTER_SET_NAME, ''), IFNULL(COLLATION_NAME, '') FROM information_schema.COLUMNS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?", schema, table)) {
            types.put(row[0].toLowerCase(Locale.ROOT), new String[]{row[1], row[2], row[3], row[4]});
        }
        String[] keyType = types.get(shardingColumn.toLowerCase(Locale.ROOT));
        List<MovedKey> out = new ArrayList<>();
        for (Map.Entry<String, List<String[]>> key : keys.entrySet()) {
            List<String> columns = new ArrayList<>();
            boolean prefix = false;
            for (String[] col : key.getValue()) {
                columns.add(col[0]);
                prefix |= !col[1].isEmpty();
            }
            if (columns.stream().anyMatch(shardingColumn::equalsIgnoreCase)) {
                continue;
            }
            if (prefix || keyType == null) {
                throw new Unsupported("the unique key " + key.getKey() + " " + columns + " of " + schema + "." + table
                        + " indexes a prefix of a column and leaves out " + shardingColumn + ": its lookup could not"
                        + " hold the values it compares; index whole columns, or add " + shardingColumn + " to the key");
            }
            List<KeyType> kinds = new ArrayList<>();
            List<String[]> columnTypes = new ArrayList<>();
            for (String column : columns) {
                String[] type = types.get(column.toLowerCase(Locale.ROOT));
                columnTypes.add(type);
                kinds.add(LookupTable.placement(type[1], type[3]));
            }
            UniqueIndex index = new UniqueIndex(schema, table, key.getKey(), columns, kinds, shardingColumn,
                    UniqueIndex.lookupName(schema, table, key.getKey()), lookupShards);
            out.add(new MovedKey(index, LookupTable.create(index, columnTypes, keyType)));
        }
        return out;
    }

    /**
     * Up to {@code limit} values that several rows of the table on {@code c}'s server hold, as the
     * server compares them (the key's collation, as the lookup's primary key will): one per line,
     * with how many rows hold it. Empty when the rows keep the key.
     */
    public List<String> duplicates(Connection c, int limit) throws SQLException {
        StringBuilder columns = new StringBuilder();
        StringBuilder notNull = new StringBuilder();
        for (String column : index.columns()) {
            columns.append(columns.length() == 0 ? "" : ", ").append(Sql.quote(column));
            notNull.append(notNull.length() == 0 ? "" : " AND ").append(Sql.quote(column)).append(" IS NOT NULL");
        }
        List<String> out = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT " + columns + ", COUNT(*) FROM " + Sql.quote(index.schema())
                + "." + Sql.quote(index.table()) + " WHERE " + notNull + " GROUP BY " + columns
                + " HAVING COUNT(*) > 1 LIMIT " + limit);
             ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                StringBuilder value = new StringBuilder();
                for (int i = 1; i <= index.columns().size(); i++) {
                    value.append(i == 1 ? "'" : "-").append(rs.getString(i));
                }
                out.add(value.append("' (").append(rs.getLong(index.columns().size() + 1)).append(" rows)").toString());
            }
        }
        return out;
    }

    /** The refusal of a move of a table whose rows hold {@code duplicates} of this key. */
    public String duplicatesRefusal(List<String> duplicates) {
        return "the rows of " + index.schema() + "." + index.table() + " break its unique key " + index.name() + " "
                + index.columns() + ", which leaves out " + index.shardingColumn() + " and so becomes a global unique"
                + " key: " + String.join(", ", duplicates) + "; remove the duplicates first";
    }
}
