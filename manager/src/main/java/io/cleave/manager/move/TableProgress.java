package io.cleave.manager.move;

import java.util.ArrayList;
import java.util.List;

/**
 * One table's part of a move, as journaled: its primary key, and how far the copy got (the key of
 * the last row copied, so a restarted copy goes on after it).
 */
public final class TableProgress {
    public String schema;
    public String table;
    public String column;
    public List<String> primaryKey = new ArrayList<>();
    /** Primary-key values of the last row copied; empty before the first chunk. */
    public List<String> watermark = new ArrayList<>();
    public boolean copied;
    public long rowsCopied;

    public TableProgress() {
    }

    TableProgress(String schema, String table, String column, List<String> primaryKey) {
        this.schema = schema;
        this.table = table;
        this.column = column;
        this.primaryKey = new ArrayList<>(primaryKey);
    }

    String qualified() {
        return Sql.quote(schema) + "." + Sql.quote(table);
    }

    @Override
    public String toString() {
        return schema + "." + table;
    }
}
