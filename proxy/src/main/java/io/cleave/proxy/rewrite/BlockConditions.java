package io.cleave.proxy.rewrite;

import io.cleave.router.plan.SqlTemplate;
import io.cleave.router.sql.ast.Expr;
import io.cleave.router.sql.ast.Query;
import io.cleave.router.sql.ast.Select;
import io.cleave.router.sql.ast.Span;
import io.cleave.router.sql.ast.TableRef;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Adds conditions to a statement so that it leaves rows of some tables out: each SELECT block (the
 * statement's, and those of derived tables in its FROM, at any depth) gets, in its WHERE, the
 * conditions for the tables it reads itself. What each table needs is the caller's
 * ({@link ForTable}). Collects where text goes, by token position, for {@link #insert}.
 */
public final class BlockConditions {

    /** The conditions a table read by a block adds to it. */
    @FunctionalInterface
    public interface ForTable {
        /** Adds {@code table}'s conditions (if any) to {@code out}; false when the statement cannot be filtered. */
        boolean add(TableRef.Table table, List<String> out);
    }

    private final ForTable forTable;
    private final TreeMap<Integer, String> inserts = new TreeMap<>();

    public BlockConditions(ForTable forTable) {
        this.forTable = forTable;
    }

    /** Text to insert, by the token position it goes before. */
    public TreeMap<Integer, String> inserts() {
        return inserts;
    }

    /** Conditions for every block of {@code q}; false when one cannot take them. */
    public boolean query(Query q) {
        if (q instanceof Select s) {
            return block(s.from(), s.where(), s.from().isEmpty() ? null : s.from().get(s.from().size() - 1).span());
        }
        if (q instanceof Query.Parenthesized p) {
            return query(p.query());
        }
        Query.SetOperation op = (Query.SetOperation) q;
        return query(op.left()) && query(op.right());
    }

    /** The block reading {@code refs}: its conditions after {@code where}, or as a WHERE after {@code end}. */
    public boolean block(List<TableRef> refs, Expr where, Span end) {
        List<String> conditions = new ArrayList<>();
        for (TableRef ref : refs) {
            if (!conditions(ref, conditions)) {
                return false;
            }
        }
        if (conditions.isEmpty()) {
            return true;
        }
        String condition = String.join(" AND ", conditions);
        if (where != null) {
            inserts.merge(where.span().first(), " (", String::concat);
            inserts.merge(where.span().end(), ") AND " + condition + " ", String::concat);
        } else if (end != null) {
            inserts.merge(end.end(), " WHERE " + condition + " ", String::concat);
        } else {
            return false;
        }
        return true;
    }

    /** Adds the conditions for the tables of {@code ref}; a derived table's query is filtered in itself. */
    private boolean conditions(TableRef ref, List<String> out) {
        if (ref instanceof TableRef.Join j) {
            return conditions(j.left(), out) && conditions(j.right(), out);
        }
        if (ref instanceof TableRef.Derived d) {
            return query(d.query());
        }
        return forTable.add((TableRef.Table) ref, out);
    }

    /**
     * The template with text inserted before the given token positions; null when a position falls
     * in text the template itself rewrote.
     */
    public static SqlTemplate insert(SqlTemplate template, int tokenCount, TreeMap<Integer, String> inserts) {
        List<SqlTemplate.Piece> pieces = template instanceof SqlTemplate.Pieces p ? p.pieces()
                : List.of(new SqlTemplate.Tokens(0, tokenCount));
        List<SqlTemplate.Piece> out = new ArrayList<>();
        TreeMap<Integer, String> left = new TreeMap<>(inserts);
        for (SqlTemplate.Piece piece : pieces) {
            if (!(piece instanceof SqlTemplate.Tokens t)) {
                out.add(piece);
                continue;
            }
            int from = t.first();
            for (Integer at : new ArrayList<>(left.subMap(t.first(), true, t.end(), true).keySet())) {
                if (at > from) {
                    out.add(new SqlTemplate.Tokens(from, at));
                }
                out.add(new SqlTemplate.Text(left.remove(at)));
                from = at;
            }
            if (t.end() > from) {
                out.add(new SqlTemplate.Tokens(from, t.end()));
            }
        }
        return left.isEmpty() ? new SqlTemplate.Pieces(out) : null;
    }

    /** A backquoted identifier. */
    public static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }
}
