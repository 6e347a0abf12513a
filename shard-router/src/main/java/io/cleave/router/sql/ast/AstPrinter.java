package io.cleave.router.sql.ast;

import java.util.List;
import java.util.Locale;

/**
 * Renders an AST as one-line S-expressions, e.g.
 * {@code (select (items c) (from sbtest1) (where (= id ?0)))}. Slots print as {@code ?n};
 * strings that are not slots print quoted. Meant for tests, logs and EXPLAIN output; the format
 * is stable but not a SQL rendering.
 */
public final class AstPrinter {

    private final StringBuilder sb = new StringBuilder();

    private AstPrinter() {
    }

    public static String print(Node node) {
        AstPrinter p = new AstPrinter();
        p.node(node);
        return p.sb.toString();
    }

    private AstPrinter node(Node n) {
        if (n instanceof Expr e) {
            expr(e);
        } else if (n instanceof Query q) {
            query(q);
        } else if (n instanceof Statement s) {
            StatementPrinter.print(this, s);
        } else if (n instanceof TableRef t) {
            tableRef(t);
        } else if (n instanceof SelectItem i) {
            selectItem(i);
        } else if (n instanceof OrderItem o) {
            orderItem(o);
        } else {
            sb.append(n);
        }
        return this;
    }

    AstPrinter open(String head) {
        sb.append('(').append(head);
        return this;
    }

    AstPrinter close() {
        sb.append(')');
        return this;
    }

    AstPrinter sp() {
        sb.append(' ');
        return this;
    }

    AstPrinter text(String s) {
        sb.append(s);
        return this;
    }

    AstPrinter quoted(String s) {
        sb.append('\'').append(s.replace("'", "''")).append('\'');
        return this;
    }

    /** {@code (head e1 e2 ...)}; nothing when the list is empty. */
    AstPrinter list(String head, List<? extends Node> nodes) {
        if (nodes.isEmpty()) {
            return this;
        }
        sp().open(head);
        for (Node n : nodes) {
            sp().node(n);
        }
        return close();
    }

    /** {@code (head e)}; nothing when null. */
    AstPrinter clause(String head, Node n) {
        if (n != null) {
            sp().open(head).sp().node(n).close();
        }
        return this;
    }

    AstPrinter child(Node n) {
        sp();
        if (n == null) {
            sb.append("nil");
        } else {
            node(n);
        }
        return this;
    }

    void expr(Expr e) {
        if (e instanceof Expr.ColumnRef c) {
            if (c.schema() != null) {
                sb.append(c.schema()).append('.');
            }
            if (c.table() != null) {
                sb.append(c.table()).append('.');
            }
            sb.append(c.column());
        } else if (e instanceof Expr.Slot s) {
            sb.append('?').append(s.slot());
        } else if (e instanceof Expr.Literal l) {
            if (l.kind() == Expr.LiteralKind.STRING) {
                quoted(l.text());
            } else {
                sb.append(l.text());
            }
        } else if (e instanceof Expr.UserVariable v) {
            sb.append('@').append(v.name());
        } else if (e instanceof Expr.SystemVariable v) {
            sb.append("@@");
            if (v.scope() != VariableScope.DEFAULT) {
                sb.append(v.scope().name().toLowerCase(Locale.ROOT)).append('.');
            }
            sb.append(v.name());
        } else if (e instanceof Expr.Unary u) {
            open(u.op().symbol()).child(u.operand()).close();
        } else if (e instanceof Expr.Binary b) {
            open(b.op().symbol()).child(b.left()).child(b.right()).close();
        } else if (e instanceof Expr.IsTest t) {
            open("is-" + (t.negated() ? "not-" : "") + t.value().name().toLowerCase(Locale.ROOT)).child(t.operand()).close();
        } else if (e instanceof Expr.Like l) {
            open(l.negated() ? "not-like" : "like").child(l.operand()).child(l.pattern()).clause("escape", l.escape()).close();
        } else if (e instanceof Expr.Between b) {
            open(b.negated() ? "not-between" : "between").child(b.operand()).child(b.low()).child(b.high()).close();
        } else if (e instanceof Expr.InList in) {
            open(in.negated() ? "not-in" : "in").child(in.operand()).sp().open("");
            for (int i = 0; i < in.values().size(); i++) {
                if (i > 0) {
                    sp();
                }
                expr(in.values().get(i));
            }
            close().close();
        } else if (e instanceof Expr.InSubquery in) {
            open(in.negated() ? "not-in" : "in").child(in.operand()).child(in.query()).close();
        } else if (e instanceof Expr.Exists x) {
            open("exists").child(x.query()).close();
        } else if (e instanceof Expr.Subquery s) {
            open("subquery").child(s.query()).close();
        } else if (e instanceof Expr.Quantified q) {
            open(q.op().symbol() + q.quantifier().name().toLowerCase(Locale.ROOT)).child(q.left()).child(q.query()).close();
        } else if (e instanceof Expr.Row r) {
            open("row");
            for (Expr item : r.items()) {
                child(item);
            }
            close();
        } else if (e instanceof Expr.Case c) {
            open("case");
            if (c.operand() != null) {
                child(c.operand());
            }
            for (Expr.When w : c.whens()) {
                sp().open("when").child(w.condition()).child(w.result()).close();
            }
            clause("else", c.otherwise()).close();
        } else if (e instanceof Expr.FunctionCall f) {
            function(f);
        } else if (e instanceof Expr.Cast c) {
            if (c.type() != null) {
                open("cast").child(c.operand()).sp().text(c.type().name()).close();
            } else {
                open("convert").child(c.operand()).sp().text("using ").text(c.charset()).close();
            }
        } else if (e instanceof Expr.Interval i) {
            open("interval").child(i.value()).sp().text(i.unit()).close();
        } else if (e instanceof Expr.Extract x) {
            open("extract").sp().text(x.unit()).child(x.operand()).close();
        } else if (e instanceof Expr.Trim t) {
            open("trim");
            if (t.side() != null) {
                sp().text(t.side());
            }
            if (t.remove() != null) {
                child(t.remove());
            }
            child(t.operand()).close();
        } else if (e instanceof Expr.Match m) {
            open("match").sp().open("");
            for (int i = 0; i < m.columns().size(); i++) {
                if (i > 0) {
                    sp();
                }
                expr(m.columns().get(i));
            }
            close().child(m.against());
            if (m.modifier() != null) {
                sp().text('"' + m.modifier() + '"');
            }
            close();
        } else if (e instanceof Expr.TemporalLiteral t) {
            open(t.type()).child(t.value()).close();
        } else if (e instanceof Expr.NextValue n) {
            open("next-value").sp().text(n.sequence().qualified()).close();
        } else if (e instanceof Expr.PreviousValue p) {
            open("previous-value").sp().text(p.sequence().qualified()).close();
        } else {
            sb.append(e);
        }
    }

    private void function(Expr.FunctionCall f) {
        String name = (f.schema() != null ? f.schema() + "." : "") + f.upperName();
        if (!f.parens()) {
            sb.append(name);
            return;
        }
        open(name);
        if (f.distinct()) {
            sp().text("distinct");
        }
        if (f.star()) {
            sp().text("*");
        }
        for (Expr a : f.args()) {
            child(a);
        }
        list("order-by", f.orderBy());
        clause("separator", f.separator());
        if (f.over() != null) {
            Expr.WindowSpec w = f.over();
            sp().open("over");
            if (w.name() != null) {
                sp().text(w.name());
            }
            list("partition-by", w.partitionBy());
            list("order-by", w.orderBy());
            close();
        }
        close();
    }

    void query(Query q) {
        if (q instanceof Select s) {
            select(s);
        } else if (q instanceof Query.SetOperation op) {
            String head = op.operator().name().toLowerCase(Locale.ROOT) + (op.all() ? "-all" : "");
            open(head);
            with(op.with());
            child(op.left()).child(op.right());
            tail(op.orderBy(), op.limit());
            close();
        } else if (q instanceof Query.Parenthesized p) {
            open("paren");
            with(p.with());
            child(p.query());
            tail(p.orderBy(), p.limit());
            close();
        }
    }

    private void with(Query.With w) {
        if (w == null) {
            return;
        }
        sp().open(w.recursive() ? "with-recursive" : "with");
        for (Query.Cte cte : w.ctes()) {
            sp().open("cte").sp().text(cte.name().value());
            if (!cte.columns().isEmpty()) {
                list("columns", cte.columns());
            }
            child(cte.query()).close();
        }
        close();
    }

    private void select(Select s) {
        open("select");
        with(s.with());
        Select.SelectOptions o = s.options();
        if (o.distinct()) {
            sp().text("distinct");
        }
        if (o.calcFoundRows()) {
            sp().text("calc-found-rows");
        }
        if (o.straightJoin()) {
            sp().text("straight-join");
        }
        for (String h : o.hints()) {
            sp().text(h);
        }
        list("items", s.items());
        if (s.into() != null) {
            sp().open("into").sp().text(s.into().target().toLowerCase(Locale.ROOT));
            for (Expr v : s.into().variables()) {
                child(v);
            }
            close();
        }
        list("from", s.from());
        clause("where", s.where());
        list("group-by", s.groupBy());
        if (s.withRollup()) {
            sp().text("rollup");
        }
        clause("having", s.having());
        tail(s.orderBy(), s.limit());
        if (s.locking() != null) {
            Select.Locking l = s.locking();
            sp().open("lock").sp().text(l.strength().name().toLowerCase(Locale.ROOT));
            list("of", l.of());
            if (l.waitPolicy() != Select.LockWait.WAIT) {
                sp().text(l.waitPolicy().name().toLowerCase(Locale.ROOT).replace('_', '-'));
            }
            close();
        }
        close();
    }

    void tail(List<OrderItem> orderBy, Limit limit) {
        list("order-by", orderBy);
        limit(limit);
    }

    void limit(Limit limit) {
        if (limit != null) {
            sp().open("limit").child(limit.count());
            clause("offset", limit.offset());
            close();
        }
    }

    void selectItem(SelectItem item) {
        if (item instanceof SelectItem.Star s) {
            if (s.schema() != null) {
                sb.append(s.schema()).append('.');
            }
            if (s.table() != null) {
                sb.append(s.table()).append('.');
            }
            sb.append('*');
        } else {
            SelectItem.Column c = (SelectItem.Column) item;
            if (c.alias() == null) {
                expr(c.expr());
            } else {
                open("as").child(c.expr()).sp().text(c.alias()).close();
            }
        }
    }

    void orderItem(OrderItem o) {
        if (o.descending()) {
            open("desc").child(o.expr()).close();
        } else {
            expr(o.expr());
        }
    }

    void tableRef(TableRef t) {
        if (t instanceof TableRef.Table tb) {
            boolean plain = tb.alias() == null && tb.indexHints().isEmpty() && tb.partitions().isEmpty();
            if (plain) {
                sb.append(tb.name().qualified());
                return;
            }
            open("table").sp().text(tb.name().qualified());
            if (tb.alias() != null) {
                sp().text(tb.alias());
            }
            list("partition", tb.partitions());
            for (TableRef.IndexHint h : tb.indexHints()) {
                sp().open(h.action().toLowerCase(Locale.ROOT) + "-index");
                for (Name n : h.indexes()) {
                    sp().text(n.value());
                }
                close();
            }
            close();
        } else if (t instanceof TableRef.Derived d) {
            open(d.lateral() ? "lateral" : "derived").child(d.query());
            if (d.alias() != null) {
                sp().text(d.alias());
            }
            close();
        } else if (t instanceof TableRef.Join j) {
            String head = switch (j.kind()) {
                case COMMA -> "comma-join";
                case INNER -> "join";
                case CROSS -> "cross-join";
                case STRAIGHT -> "straight-join";
                case LEFT -> "left-join";
                case RIGHT -> "right-join";
                case NATURAL -> "natural-join";
                case NATURAL_LEFT -> "natural-left-join";
                case NATURAL_RIGHT -> "natural-right-join";
            };
            open(head).child(j.left()).child(j.right()).clause("on", j.on()).list("using", j.using()).close();
        }
    }
}
