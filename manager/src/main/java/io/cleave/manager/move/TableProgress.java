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
    /** The sharding column (KEYS: the keyspace's; TABLES: the new rule's, null unless sharded). */
    public String column;
    /** TABLES: the rule the table gets at the cutover. */
    public RuleSpec rule;
    /** Rows to copy, counted in the copy's snapshot. */
    public long rowsTotal;
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

    /** A table of a TABLES move, which gets {@code rule} at the cutover. */
    public static TableProgress of(String schema, String table, List<String> primaryKey, io.cleave.router.topology.TableRule rule) {
        TableProgress t = new TableProgress(schema, table,
                rule instanceof io.cleave.router.topology.TableRule.Sharded s ? s.column() : null, primaryKey);
        t.rule = RuleSpec.of(rule);
        return t;
    }

    String qualified() {
        return Sql.quote(schema) + "." + Sql.quote(table);
    }

    @Override
    public String toString() {
        return schema + "." + table;
    }
}
