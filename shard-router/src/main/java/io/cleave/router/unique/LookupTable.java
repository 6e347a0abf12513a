package io.cleave.router.unique;

import io.cleave.router.keyspace.KeyCollations;
import io.cleave.router.keyspace.KeyType;

import java.util.List;
import java.util.Locale;

/**
 * What a global unique key's lookup table is made of, from the key's columns as
 * information_schema.COLUMNS shows them: how their values are placed, and the table's CREATE.
 * Shared by the proxy (keys declared or added through it) and the mover (keys of tables a move
 * shards), so both build the same lookup for the same key.
 */
public final class LookupTable {

    private LookupTable() {
    }

    /**
     * How a column's values are placed: integers as numbers, strings folded where the fold never
     * splits values the collation calls equal; others (a language's collation, dates, decimals)
     * not at all: their lookup rows stay on one shard, where the server compares them.
     */
    public static KeyType placement(String dataType, String collation) {
        return switch (dataType.toLowerCase(Locale.ROOT)) {
            case "tinyint", "smallint", "mediumint", "int", "integer", "bigint" -> KeyType.INTEGER;
            case "binary", "varbinary" -> KeyType.STRING;
            case "char", "varchar" -> KeyCollations.foldCovers(collation) ? KeyType.STRING : null;
            default -> null;
        };
    }

    /**
     * The CREATE TABLE of {@code index}'s lookup: the key's columns as the table has them, and the
     * row's sharding key. Each type is {COLUMN_TYPE, DATA_TYPE, CHARACTER_SET_NAME, COLLATION_NAME}
     * (empty strings where information_schema has NULL).
     */
    public static String create(UniqueIndex index, List<String[]> columnTypes, String[] keyType) {
        StringBuilder s = new StringBuilder("CREATE TABLE ").append(index.qualifiedLookup()).append(" (");
        for (int i = 0; i < index.columns().size(); i++) {
            s.append(identifier(index.columns().get(i))).append(' ').append(columnType(columnTypes.get(i)))
                    .append(" NOT NULL, ");
        }
        s.append(UniqueIndex.KEY_COLUMN).append(' ').append(columnType(keyType)).append(" NOT NULL, PRIMARY KEY (");
        for (int i = 0; i < index.columns().size(); i++) {
            s.append(i == 0 ? "" : ", ").append(identifier(index.columns().get(i)));
        }
        return s.append(")) ENGINE=InnoDB").toString();
    }

    /** The column's type as information_schema shows it, with its character set and collation. */
    private static String columnType(String[] type) {
        String s = type[0];
        if (!type[2].isEmpty() && !type[3].isEmpty()) {
            s += " CHARACTER SET " + type[2] + " COLLATE " + type[3];
        }
        return s;
    }

    private static String identifier(String s) {
        return "`" + s.replace("`", "``") + "`";
    }
}
