package io.cleave.router.plan;

import io.cleave.router.sql.ast.Assignment;
import io.cleave.router.sql.ast.Delete;
import io.cleave.router.sql.ast.Expr;
import io.cleave.router.sql.ast.Exprs;
import io.cleave.router.sql.ast.Insert;
import io.cleave.router.sql.ast.OrderItem;
import io.cleave.router.sql.ast.Query;
import io.cleave.router.sql.ast.Select;
import io.cleave.router.sql.ast.SelectItem;
import io.cleave.router.sql.ast.SetStatement;
import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.ast.TableRef;
import io.cleave.router.sql.ast.Update;
import io.cleave.router.sql.ast.UtilityStatement;

import java.util.List;
import java.util.function.Consumer;

/** Visits every expression of a statement, those of subqueries, derived tables and CTEs included. */
final class ExpressionVisitor {

    private final Consumer<Expr> visitor;

    ExpressionVisitor(Consumer<Expr> visitor) {
        this.visitor = visitor;
    }

    void statement(Statement s) {
        if (s instanceof Query q) {
            query(q);
        } else if (s instanceof Insert i) {
            if (i.source() instanceof Insert.Values v) {
                for (Insert.Row row : v.rows()) {
                    exprs(row.values());
                }
            } else if (i.source() instanceof Insert.SetList set) {
                assignments(set.assignments());
            } else if (i.source() instanceof Insert.FromQuery fq) {
                query(fq.query());
            }
            assignments(i.onDuplicateKeyUpdate());
        } else if (s instanceof Update u) {
            refs(u.tables());
            assignments(u.assignments());
            expr(u.where());
            order(u.orderBy());
        } else if (s instanceof Delete d) {
            refs(d.from());
            expr(d.where());
            order(d.orderBy());
        } else if (s instanceof UtilityStatement.Do d) {
            exprs(d.exprs());
        } else if (s instanceof SetStatement set) {
            for (SetStatement.Item item : set.items()) {
                if (item instanceof SetStatement.Variable v) {
                    expr(v.value());
                }
            }
        } else if (s instanceof UtilityStatement.Explain e) {
            statement(e.statement());
        }
    }

    private void query(Query q) {
        if (q.with() != null) {
            for (Query.Cte cte : q.with().ctes()) {
                query(cte.query());
            }
        }
        if (q instanceof Select s) {
            for (SelectItem item : s.items()) {
                if (item instanceof SelectItem.Column c) {
                    expr(c.expr());
                }
            }
            refs(s.from());
            expr(s.where());
            order(s.groupBy());
            expr(s.having());
            order(s.orderBy());
        } else if (q instanceof Query.SetOperation op) {
            query(op.left());
            query(op.right());
            order(op.orderBy());
        } else if (q instanceof Query.Parenthesized p) {
            query(p.query());
            order(p.orderBy());
        }
    }

    private void refs(List<TableRef> refs) {
        for (TableRef r : refs) {
            ref(r);
        }
    }

    private void ref(TableRef r) {
        if (r instanceof TableRef.Derived d) {
            query(d.query());
        } else if (r instanceof TableRef.Join j) {
            ref(j.left());
            ref(j.right());
            expr(j.on());
        }
    }

    private void assignments(List<Assignment> assignments) {
        for (Assignment a : assignments) {
            expr(a.value());
        }
    }

    private void order(List<OrderItem> items) {
        for (OrderItem o : items) {
            expr(o.expr());
        }
    }

    private void exprs(List<Expr> exprs) {
        for (Expr e : exprs) {
            expr(e);
        }
    }

    private void expr(Expr e) {
        if (e == null) {
            return;
        }
        visitor.accept(e);
        Exprs.walk(e, x -> {
            for (Query q : x.subqueries()) {
                query(q);
            }
        });
    }
}
