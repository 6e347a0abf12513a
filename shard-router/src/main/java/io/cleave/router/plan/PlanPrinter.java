package io.cleave.router.plan;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A plan as one line of text, for golden tests and EXPLAIN: what goes where, and for a statement
 * whose text changes on the way, the text itself (rendered for the analyzed statement).
 */
public final class PlanPrinter {

    private PlanPrinter() {
    }

    public static String print(Analysis analysis) {
        Plan plan = analysis.plan();
        LiteralParameters values = new LiteralParameters().bind(analysis, StandardCharsets.UTF_8)
                .forPlaceholders(UNBOUND);
        return print(plan, analysis, values);
    }

    /** Placeholders of a statement printed without an execute: shown as {@code ?}. */
    static final ParameterValues UNBOUND = new ParameterValues() {
        @Override
        public boolean isNull(int slot) {
            return false;
        }

        @Override
        public io.cleave.router.keyspace.ShardKey key(int slot, io.cleave.router.keyspace.KeyType type) {
            return null;
        }

        @Override
        public long longValue(int slot) {
            throw new IllegalArgumentException("unbound");
        }

        @Override
        public void appendSql(int slot, java.io.ByteArrayOutputStream out) {
            out.write('?');
        }

        @Override
        public String text(int slot) {
            return "?";
        }

        @Override
        public boolean isNumeric(int slot) {
            return false;
        }
    };

    public static String print(Plan plan, Analysis analysis, ParameterValues values) {
        if (plan instanceof Plan.MultiStatement m) {
            return print(m.plan(), analysis, values);
        }
        if (plan instanceof Plan.Route r) {
            List<String> parts = new ArrayList<>();
            parts.add("route " + r.target());
            if (r.write()) {
                parts.add("write");
            }
            if (r.lockingRead()) {
                parts.add("locking");
            }
            Effects effects = r.effects();
            if (effects.usesLastInsertId()) {
                parts.add("last_insert_id");
            }
            if (effects.pin().pin() != Pin.NONE) {
                parts.add("pin " + effects.pin().pin().name().toLowerCase(java.util.Locale.ROOT));
            }
            if (effects.previousConnection()) {
                parts.add("previous connection");
            }
            if (r.several() instanceof Plan.Merge m) {
                parts.add("merge " + describe(m.spec()) + rules(m.rules()));
                if (!(m.sql() instanceof SqlTemplate.Original)) {
                    parts.add("as: " + text(m.sql(), analysis, values));
                }
            } else if (r.several() instanceof Plan.Evaluate e) {
                parts.add("evaluate on shard " + e.shard() + " gathering " + e.tables() + rules(e.rules()));
            } else if (r.several() instanceof Plan.FanOutWrite w) {
                parts.add((w.replicated() ? "all alike" : "sum of shards") + rules(w.rules()));
            } else if (r.several() instanceof Plan.Refuse f) {
                parts.add("multi-shard refused: " + f.message());
            }
            return String.join("; ", parts);
        }
        if (plan instanceof Plan.InsertSplit s) {
            List<String> keys = new ArrayList<>();
            for (Plan.InsertRow row : s.rows()) {
                keys.add(row.key() == null ? "?" : row.key().toString());
            }
            return "insert into " + s.table() + " by " + s.keyspace().name() + " rows " + keys
                    + (s.missingKeyColumn() != null ? " generating " + s.missingKeyColumn() : "");
        }
        if (plan instanceof Plan.Session s) {
            return "session " + s.action();
        }
        if (plan instanceof Plan.Local l) {
            return "local " + l.query().name().toLowerCase(java.util.Locale.ROOT);
        }
        Plan.Refuse r = (Plan.Refuse) plan;
        return "refuse " + r.code() + ": " + r.message();
    }

    /** The rules that make a multi-shard plan exact, in their declared order. */
    private static String rules(java.util.Set<ScatterRule> rules) {
        List<String> names = new ArrayList<>();
        for (ScatterRule r : ScatterRule.values()) {
            if (rules.contains(r)) {
                names.add(r.name().toLowerCase(java.util.Locale.ROOT));
            }
        }
        return " by " + String.join(", ", names);
    }

    private static String describe(MergeSpec spec) {
        List<String> parts = new ArrayList<>();
        if (spec.grouping() != null) {
            parts.add("group " + spec.grouping().keys() + " " + spec.grouping().aggregates()
                    + (spec.grouping().having() != null ? " having " + spec.grouping().having() : ""));
        }
        if (!spec.order().isEmpty()) {
            parts.add("order " + spec.order());
        }
        if (spec.hasLimit()) {
            parts.add("limit " + spec.offset() + "," + spec.count());
        }
        if (spec.hiddenColumns() > 0) {
            parts.add("hide " + spec.hiddenColumns());
        }
        return parts.isEmpty() ? "(concatenate)" : "(" + String.join(" ", parts) + ")";
    }

    private static String text(SqlTemplate t, Analysis analysis, ParameterValues values) {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        for (SqlTemplate.Piece piece : ((SqlTemplate.Pieces) t).pieces()) {
            if (piece instanceof SqlTemplate.LimitSum sum) {
                try {
                    SqlRenderer.append(out, piece, analysis, values);
                } catch (IllegalArgumentException unbound) {
                    byte[] b = ("(" + sum.offset() + "+" + sum.count() + ")").getBytes(StandardCharsets.UTF_8);
                    out.write(b, 0, b.length);
                }
            } else {
                SqlRenderer.append(out, piece, analysis, values);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
