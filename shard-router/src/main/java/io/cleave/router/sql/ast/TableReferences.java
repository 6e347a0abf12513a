package io.cleave.router.sql.ast;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Every table a statement reads or writes, including those in subqueries, derived tables, CTEs
 * and set-operation branches, each with the query block it belongs to.
 */
public final class TableReferences {

    /**
     * One use of a table. {@code scope} is the SELECT block whose FROM names it, or the statement
     * itself for the target of INSERT/UPDATE/DELETE and DDL; {@code depth} is 0 for the outermost
     * level and grows by one per nested query. {@code cte} is true when the name refers to a CTE
     * of an enclosing WITH rather than to a table.
     */
    public record TableUse(TableName name, String alias, Node scope, int depth, boolean cte) {
    }

    private final List<TableUse> uses = new ArrayList<>();
    private final List<Set<String>> cteScopes = new ArrayList<>();

    private TableReferences() {
    }

    public static List<TableUse> of(Statement statement) {
        TableReferences r = new TableReferences();
        r.statement(statement);
        return List.copyOf(r.uses);
    }

    private void statement(Statement s) {
        if (s instanceof Query q) {
            query(q, 0);
        } else if (s instanceof Insert i) {
            add(i.table(), null, i, 0);
            if (i.source() instanceof Insert.Values v) {
                for (Insert.Row row : v.rows()) {
                    exprs(row.values(), 0);
                }
            } else if (i.source() instanceof Insert.SetList set) {
                assignments(set.assignments(), 0);
            } else if (i.source() instanceof Insert.FromQuery fq) {
                query(fq.query(), 1);
            }
            assignments(i.onDuplicateKeyUpdate(), 0);
        } else if (s instanceof Update u) {
            refs(u.tables(), u, 0);
            assignments(u.assignments(), 0);
            expr(u.where(), 0);
        } else if (s instanceof Delete d) {
            refs(d.from(), d, 0);
            expr(d.where(), 0);
        } else if (s instanceof Ddl ddl) {
            for (TableName t : ddl.tables()) {
                add(t, null, ddl, 0);
            }
            if (ddl instanceof Ddl.CreateTable ct && ct.asQuery() != null) {
                query(ct.asQuery(), 1);
            } else if (ddl instanceof Ddl.ObjectDdl o && o.query() != null) {
                query(o.query(), 1);
            }
        } else if (s instanceof UtilityStatement.Explain e) {
            statement(e.statement());
        } else if (s instanceof UtilityStatement.Describe d) {
            add(d.table(), null, d, 0);
        } else if (s instanceof UtilityStatement.Show sh && sh.table() != null) {
            add(sh.table(), null, sh, 0);
        } else if (s instanceof UtilityStatement.LockTables l) {
            for (UtilityStatement.TableLock t : l.locks()) {
                add(t.table(), t.alias(), l, 0);
            }
        } else if (s instanceof UtilityStatement.LoadData ld) {
            add(ld.table(), null, ld, 0);
        }
    }

    private void query(Query q, int depth) {
        Query.With with = q.with();
        if (with != null) {
            Set<String> names = new HashSet<>();
            for (Query.Cte cte : with.ctes()) {
                names.add(cte.name().value().toLowerCase(java.util.Locale.ROOT));
            }
            cteScopes.add(names);
            for (Query.Cte cte : with.ctes()) {
                query(cte.query(), depth + 1);
            }
        }
        if (q instanceof Select s) {
            refs(s.from(), s, depth);
            for (SelectItem item : s.items()) {
                if (item instanceof SelectItem.Column c) {
                    expr(c.expr(), depth);
                }
            }
            expr(s.where(), depth);
            expr(s.having(), depth);
        } else if (q instanceof Query.SetOperation op) {
            query(op.left(), depth);
            query(op.right(), depth);
        } else if (q instanceof Query.Parenthesized p) {
            query(p.query(), depth);
        }
        if (with != null) {
            cteScopes.remove(cteScopes.size() - 1);
        }
    }

    private void refs(List<TableRef> refs, Node scope, int depth) {
        for (TableRef r : refs) {
            ref(r, scope, depth);
        }
    }

    private void ref(TableRef r, Node scope, int depth) {
        if (r instanceof TableRef.Table t) {
            add(t.name(), t.alias(), scope, depth);
        } else if (r instanceof TableRef.Derived d) {
            query(d.query(), depth + 1);
        } else if (r instanceof TableRef.Join j) {
            ref(j.left(), scope, depth);
            ref(j.right(), scope, depth);
            expr(j.on(), depth);
        }
    }

    private void assignments(List<Assignment> list, int depth) {
        for (Assignment a : list) {
            expr(a.value(), depth);
        }
    }

    private void exprs(List<Expr> list, int depth) {
        for (Expr e : list) {
            expr(e, depth);
        }
    }

    private void expr(Expr e, int depth) {
        if (e == null) {
            return;
        }
        Exprs.walk(e, x -> {
            for (Query q : x.subqueries()) {
                query(q, depth + 1);
            }
        });
    }

    private void add(TableName name, String alias, Node scope, int depth) {
        boolean cte = false;
        if (name.schema() == null) {
            String lower = name.name().toLowerCase(java.util.Locale.ROOT);
            for (Set<String> names : cteScopes) {
                cte |= names.contains(lower);
            }
        }
        uses.add(new TableUse(name, alias, scope, depth, cte));
    }
}
