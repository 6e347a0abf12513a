package io.cleave.router.plan;

import io.cleave.router.sql.ast.Expr;
import io.cleave.router.sql.ast.Exprs;
import io.cleave.router.sql.ast.OrderItem;
import io.cleave.router.sql.ast.Select;
import io.cleave.router.sql.ast.SelectItem;
import io.cleave.router.sql.ast.Span;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Rewrites a SELECT so that several shards' answers can be merged into the one answer a single
 * server would give, and says how to merge them. Aggregates become partial aggregates (AVG as SUM
 * and COUNT), ORDER BY and GROUP BY keys that are not in the select list become hidden columns,
 * string keys get a hidden WEIGHT_STRING so that the merge orders by the column's collation,
 * LIMIT offset,count goes down as LIMIT offset+count (or, when groups must be merged first, is
 * applied after the merge, together with HAVING). Throws {@link PlanningException} for what
 * cannot be merged exactly.
 */
final class ScatterRewriter {

    /** A column of the rewritten result: a select item or a hidden helper. */
    private record Col(int item, int hidden) {
        static Col item(int i) {
            return new Col(i, -1);
        }

        static Col hidden(int j) {
            return new Col(-1, j);
        }
    }

    private record PendingSort(Col column, boolean descending, Col weight) {
    }

    private record PendingGroup(Col column, Col weight) {
    }

    private record PendingAggregate(AggregateKind kind, Col column, Col count, Col weight, Col type) {
        PendingAggregate(AggregateKind kind, Col column, Col count, Col weight) {
            this(kind, column, count, weight, null);
        }
    }

    private final PlanContext ctx;
    private final Select select;
    private final TemplateBuilder edits = new TemplateBuilder();
    private final List<List<SqlTemplate.Piece>> hidden = new ArrayList<>();
    private final List<PendingAggregate> aggregates = new ArrayList<>();
    private final Map<Integer, Col> itemWeights = new HashMap<>();
    private final Map<Integer, PendingAggregate> itemAggregates = new HashMap<>();
    private final boolean windowsByKey;
    private final Set<ScatterRule> rules = EnumSet.noneOf(ScatterRule.class);
    private boolean star;

    /**
     * @param windowsByKey the statement's window functions are partitioned by the sharding key
     * @param rowRules     why the statement's rows are exact across shards ({@link ScatterCheck})
     */
    ScatterRewriter(PlanContext ctx, Select select, boolean windowsByKey, Set<ScatterRule> rowRules) {
        this.ctx = ctx;
        this.select = select;
        this.windowsByKey = windowsByKey;
        this.rules.addAll(rowRules);
    }

    Plan.Merge rewrite() {
        Select s = select;
        if (s.options().calcFoundRows()) {
            throw new PlanningException("SQL_CALC_FOUND_ROWS across shards is not supported");
        }
        if (s.into() != null) {
            throw new PlanningException("SELECT ... INTO across shards is not supported");
        }
        if (s.withRollup()) {
            throw new PlanningException("GROUP BY ... WITH ROLLUP across shards is not supported");
        }
        boolean aggregated = !s.groupBy().isEmpty();
        for (int i = 0; i < s.items().size(); i++) {
            SelectItem item = s.items().get(i);
            if (item instanceof SelectItem.Star) {
                star = true;
                continue;
            }
            SelectItem.Column c = (SelectItem.Column) item;
            refuseWindows(c.expr());
            if (c.expr() instanceof Expr.FunctionCall f && f.isAggregate()) {
                itemAggregate(i, c, f);
                aggregated = true;
            } else if (Exprs.containsAggregate(c.expr())) {
                throw new PlanningException("the expression " + ctx.text(c.expr().span())
                        + " computes on aggregates, which cannot be combined across shards; select the aggregates"
                        + " themselves (not supported across shards)");
            }
            keepName(c);
        }
        boolean distinct = s.options().distinct();
        if (windowsByKey && (aggregated || distinct)) {
            throw new PlanningException("window functions together with aggregates or DISTINCT across shards are not"
                    + " supported");
        }
        if (star && (aggregated || distinct)) {
            throw new PlanningException("SELECT * with aggregates or DISTINCT across shards is not supported");
        }
        if (distinct && aggregated) {
            throw new PlanningException("SELECT DISTINCT with aggregates across shards is not supported");
        }

        List<PendingGroup> groups = new ArrayList<>();
        for (OrderItem g : s.groupBy()) {
            refuseWindows(g.expr());
            Integer item = findItem(g);
            if (item != null) {
                groups.add(new PendingGroup(Col.item(item), weightOfItem(item)));
            } else {
                Col col = addHidden(exprPieces(g.expr()));
                groups.add(new PendingGroup(col, addHidden(weightPieces(g.expr().span()))));
            }
        }
        if (distinct) {
            for (int i = 0; i < s.items().size(); i++) {
                groups.add(new PendingGroup(Col.item(i), weightOfItem(i)));
            }
        }

        Predicate having = null;
        if (s.having() != null && aggregated) {
            having = splitHaving(s.having());
        }

        List<PendingSort> sorts = new ArrayList<>();
        for (OrderItem o : s.orderBy()) {
            refuseWindows(o.expr());
            sorts.add(sortKey(o, aggregated));
        }

        ValueRef offset = null;
        ValueRef count = null;
        if (s.limit() != null) {
            count = valueRef(s.limit().count());
            offset = s.limit().offset() == null ? new ValueRef.Constant(0) : valueRef(s.limit().offset());
            rules.add(ScatterRule.LIMIT_AFTER_MERGE);
            if (aggregated || distinct) {
                // Groups and duplicates are merged before the LIMIT: every shard sends all of its rows.
                edits.replace(s.limit().span().first(), s.limit().span().end(), List.of(TemplateBuilder.text(ALL_ROWS)));
            } else if (s.limit().offset() != null) {
                edits.replace(s.limit().span().first(), s.limit().span().end(),
                        List.of(TemplateBuilder.text("LIMIT "), new SqlTemplate.LimitSum(offset, count)));
            }
        } else if (aggregated || distinct) {
            // Nor may sql_select_limit cut a shard's partial groups: the merge applies it to the merged rows.
            int end = s.locking() != null ? s.locking().span().first() : s.span().end();
            edits.insert(end, List.of(TemplateBuilder.text(ALL_ROWS)));
        }
        rules.add(ScatterRule.SELECT_LIMIT_AFTER_MERGE);
        if (!s.orderBy().isEmpty()) {
            rules.add(ScatterRule.MERGE_ORDER);
        }
        if (aggregated) {
            rules.add(ScatterRule.REAGGREGATE);
        }
        if (having != null) {
            rules.add(ScatterRule.HAVING_AFTER_MERGE);
        }
        if (distinct) {
            rules.add(ScatterRule.DISTINCT_AFTER_MERGE);
        }

        if (!hidden.isEmpty()) {
            List<SqlTemplate.Piece> added = new ArrayList<>();
            for (List<SqlTemplate.Piece> h : hidden) {
                added.add(TemplateBuilder.text(added.isEmpty() ? "," : ", "));
                added.addAll(h);
            }
            int afterItems = s.items().get(s.items().size() - 1).span().end();
            edits.insert(afterItems, added);
        }

        int h = hidden.size();
        List<SortKey> sortKeys = new ArrayList<>();
        for (PendingSort p : sorts) {
            sortKeys.add(new SortKey(index(p.column(), h), p.descending(), index(p.weight(), h)));
        }
        Grouping grouping = null;
        if (aggregated || distinct) {
            List<GroupKey> keys = new ArrayList<>();
            for (PendingGroup g : groups) {
                keys.add(new GroupKey(index(g.column(), h), index(g.weight(), h)));
            }
            List<AggregateSpec> specs = new ArrayList<>();
            for (PendingAggregate a : aggregates) {
                specs.add(new AggregateSpec(a.kind(), index(a.column(), h), index(a.count(), h), index(a.weight(), h),
                        index(a.type(), h)));
            }
            grouping = new Grouping(keys, specs, having == null ? null : finish(having, h));
        }
        MergeSpec spec = new MergeSpec(h, sortKeys, grouping, distinct, offset, count);
        return new Plan.Merge(edits.build(ctx.tokenCount()), spec, rules);
    }

    // ---- select items ----------------------------------------------------------------------

    private void itemAggregate(int i, SelectItem.Column c, Expr.FunctionCall f) {
        String name = f.upperName();
        if (f.distinct()) {
            throw new PlanningException(name + "(DISTINCT ...) across shards is not supported: values can repeat on"
                    + " several shards");
        }
        PendingAggregate a;
        switch (name) {
            case "COUNT":
                a = new PendingAggregate(AggregateKind.COUNT, Col.item(i), null, null);
                break;
            case "SUM":
                a = new PendingAggregate(AggregateKind.SUM, Col.item(i), null, null);
                break;
            case "MIN":
            case "MAX":
                a = new PendingAggregate(name.equals("MIN") ? AggregateKind.MIN : AggregateKind.MAX, Col.item(i), null,
                        addHidden(weightPieces(f.span())));
                break;
            case "AVG": {
                Span args = argsSpan(f);
                List<SqlTemplate.Piece> sum = new ArrayList<>(List.of(TemplateBuilder.text("SUM("),
                        new SqlTemplate.Tokens(args.first(), args.end()), TemplateBuilder.text(")")));
                if (c.alias() == null) {
                    // Keep the column name the server would give AVG(...).
                    sum.add(TemplateBuilder.text(" AS "));
                    sum.add(new SqlTemplate.QuotedTokens(f.span().first(), f.span().end()));
                }
                edits.replace(f.span().first(), f.span().end(), sum);
                Col count = addHidden(List.of(TemplateBuilder.text("COUNT("),
                        new SqlTemplate.Tokens(args.first(), args.end()), TemplateBuilder.text(")")));
                // The shard's own AVG is not merged, only its column definition (the server's type rules).
                Col type = addHidden(List.of(TemplateBuilder.tokens(f.span())));
                a = new PendingAggregate(AggregateKind.AVG, Col.item(i), count, null, type);
                break;
            }
            case "ANY_VALUE":
                a = new PendingAggregate(AggregateKind.FIRST, Col.item(i), null, null);
                break;
            default:
                throw new PlanningException(name + "() across shards is not supported");
        }
        aggregates.add(a);
        itemAggregates.put(i, a);
    }

    /**
     * The shards of a prepared statement get its values as literals, so an unnamed expression
     * with a value in it would be named after the literal ({@code k + 1}) instead of as the client
     * wrote it ({@code k + ?}): name it as written. A bare value is named after the value itself
     * either way; AVG is renamed where it is rewritten.
     */
    private void keepName(SelectItem.Column c) {
        Expr e = c.expr();
        if (c.alias() != null || e instanceof Expr.Slot || !Exprs.anyMatch(e, x -> x instanceof Expr.Slot)
                || e instanceof Expr.FunctionCall f && f.isAggregate() && f.upperName().equals("AVG")) {
            return;
        }
        edits.insert(e.span().end(), List.of(TemplateBuilder.text("AS "),
                new SqlTemplate.QuotedTokens(e.span().first(), e.span().end())));
    }

    private Span argsSpan(Expr.FunctionCall f) {
        if (f.args().isEmpty()) {
            throw new PlanningException(f.upperName() + "() without arguments cannot be merged across shards");
        }
        return Span.of(f.args().get(0).span().first(), f.args().get(f.args().size() - 1).span().end());
    }

    // ---- ORDER BY, GROUP BY, HAVING ---------------------------------------------------------

    private PendingSort sortKey(OrderItem o, boolean aggregated) {
        Integer item = findItem(o);
        if (item != null) {
            PendingAggregate a = itemAggregates.get(item);
            if (a != null) {
                return new PendingSort(Col.item(item), o.descending(), a.weight());
            }
            return new PendingSort(Col.item(item), o.descending(), weightOfItem(item));
        }
        if (o.expr() instanceof Expr.FunctionCall f && f.isAggregate()) {
            if (!aggregated) {
                throw new PlanningException("ORDER BY an aggregate of a query without aggregates");
            }
            PendingAggregate a = hiddenAggregate(f);
            return new PendingSort(a.column(), o.descending(), a.weight());
        }
        if (Exprs.containsAggregate(o.expr())) {
            throw new PlanningException("ORDER BY an expression over aggregates (" + ctx.text(o.expr().span())
                    + ") across shards is not supported");
        }
        Col col = addHidden(exprPieces(o.expr()));
        return new PendingSort(col, o.descending(), addHidden(weightPieces(o.expr().span())));
    }

    /**
     * HAVING conditions on aggregates must see merged groups, not one shard's partial ones: they
     * are evaluated after the merge. Conditions without aggregates only look at group keys, which
     * are the same in every shard's part of a group, so they stay with the shards (where strings
     * compare in their collation).
     */
    private Predicate splitHaving(Expr having) {
        List<Expr> local = new ArrayList<>();
        List<Predicate> merged = new ArrayList<>();
        for (Expr c : Exprs.conjuncts(having)) {
            if (onGroupKeys(c)) {
                local.add(c);
            } else {
                merged.add(predicate(c));
            }
        }
        if (merged.isEmpty()) {
            return null;
        }
        int clause = having.span().first() - 1;
        if (local.isEmpty()) {
            edits.remove(clause, having.span().end());
        } else {
            List<SqlTemplate.Piece> kept = new ArrayList<>();
            kept.add(TemplateBuilder.text("HAVING "));
            for (Expr c : local) {
                kept.add(TemplateBuilder.text(kept.size() == 1 ? "(" : " AND ("));
                kept.add(TemplateBuilder.tokens(c.span()));
                kept.add(TemplateBuilder.text(")"));
            }
            edits.replace(clause, having.span().end(), kept);
        }
        return merged.size() == 1 ? merged.get(0) : new Predicate.And(merged);
    }

    /** A condition without aggregates, naming no aggregated select item by its alias. */
    private boolean onGroupKeys(Expr c) {
        if (Exprs.containsAggregate(c)) {
            return false;
        }
        return !Exprs.anyMatch(c, x -> x instanceof Expr.ColumnRef ref && ref.table() == null
                && itemAggregates.containsKey(findAlias(ref.column())));
    }

    private int findAlias(String name) {
        for (int i = 0; i < select.items().size(); i++) {
            if (select.items().get(i) instanceof SelectItem.Column item && item.alias() != null
                    && item.alias().equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    private Predicate predicate(Expr e) {
        if (e instanceof Expr.Binary b) {
            switch (b.op()) {
                case AND:
                    return new Predicate.And(List.of(predicate(b.left()), predicate(b.right())));
                case OR:
                    return new Predicate.Or(List.of(predicate(b.left()), predicate(b.right())));
                case EQ:
                    return compare(Predicate.Op.EQ, b);
                case NULL_SAFE_EQ:
                    return compare(Predicate.Op.NULL_SAFE_EQ, b);
                case NE:
                    return compare(Predicate.Op.NE, b);
                case LT:
                    return compare(Predicate.Op.LT, b);
                case LE:
                    return compare(Predicate.Op.LE, b);
                case GT:
                    return compare(Predicate.Op.GT, b);
                case GE:
                    return compare(Predicate.Op.GE, b);
                default:
                    break;
            }
        } else if (e instanceof Expr.Unary u && u.op() == Expr.UnaryOp.NOT) {
            return new Predicate.Not(predicate(u.operand()));
        } else if (e instanceof Expr.IsTest t && t.value() == Expr.IsValue.NULL) {
            return new Predicate.IsNull(operand(t.operand()), t.negated());
        }
        throw new PlanningException("HAVING " + ctx.text(e.span()) + " cannot be evaluated after merging shards:"
                + " not supported across shards (use comparisons of aggregates and constants)");
    }

    private Predicate compare(Predicate.Op op, Expr.Binary b) {
        return new Predicate.Compare(op, operand(b.left()), operand(b.right()));
    }

    /** Operands of HAVING comparisons, with hidden columns numbered provisionally (see {@link #finish}). */
    private Predicate.Operand operand(Expr e) {
        if (e instanceof Expr.Slot s) {
            return new Predicate.SlotOperand(s.slot());
        }
        Integer item = findItem(e);
        Col col;
        if (item != null) {
            col = Col.item(item);
        } else if (e instanceof Expr.FunctionCall f && f.isAggregate()) {
            col = hiddenAggregate(f).column();
        } else if (e instanceof Expr.ColumnRef) {
            col = addHidden(exprPieces(e));
        } else {
            throw new PlanningException("HAVING operand " + ctx.text(e.span()) + " cannot be evaluated after merging"
                    + " shards: not supported across shards");
        }
        return new Predicate.ColumnOperand(col.item() >= 0 ? col.item() : PROVISIONAL_HIDDEN - col.hidden());
    }

    private static final int PROVISIONAL_HIDDEN = -1_000_000;

    private Predicate finish(Predicate p, int h) {
        if (p instanceof Predicate.And a) {
            List<Predicate> terms = new ArrayList<>();
            for (Predicate t : a.terms()) {
                terms.add(finish(t, h));
            }
            return new Predicate.And(terms);
        }
        if (p instanceof Predicate.Or o) {
            List<Predicate> terms = new ArrayList<>();
            for (Predicate t : o.terms()) {
                terms.add(finish(t, h));
            }
            return new Predicate.Or(terms);
        }
        if (p instanceof Predicate.Not n) {
            return new Predicate.Not(finish(n.term(), h));
        }
        if (p instanceof Predicate.IsNull n) {
            return new Predicate.IsNull(finish(n.operand(), h), n.negated());
        }
        Predicate.Compare c = (Predicate.Compare) p;
        return new Predicate.Compare(c.op(), finish(c.left(), h), finish(c.right(), h));
    }

    private Predicate.Operand finish(Predicate.Operand o, int h) {
        if (o instanceof Predicate.ColumnOperand c && c.column() <= PROVISIONAL_HIDDEN) {
            return new Predicate.ColumnOperand(index(Col.hidden(PROVISIONAL_HIDDEN - c.column()), h));
        }
        return o;
    }

    private PendingAggregate hiddenAggregate(Expr.FunctionCall f) {
        String name = f.upperName();
        if (f.distinct()) {
            throw new PlanningException(name + "(DISTINCT ...) across shards is not supported");
        }
        PendingAggregate a;
        switch (name) {
            case "COUNT":
                a = new PendingAggregate(AggregateKind.COUNT, addHidden(List.of(TemplateBuilder.tokens(f.span()))), null, null);
                break;
            case "SUM":
                a = new PendingAggregate(AggregateKind.SUM, addHidden(List.of(TemplateBuilder.tokens(f.span()))), null, null);
                break;
            case "MIN":
            case "MAX":
                Col col = addHidden(List.of(TemplateBuilder.tokens(f.span())));
                a = new PendingAggregate(name.equals("MIN") ? AggregateKind.MIN : AggregateKind.MAX, col, null,
                        addHidden(weightPieces(f.span())));
                break;
            case "AVG": {
                Span args = argsSpan(f);
                Col sum = addHidden(List.of(TemplateBuilder.text("SUM("), new SqlTemplate.Tokens(args.first(), args.end()),
                        TemplateBuilder.text(")")));
                Col count = addHidden(List.of(TemplateBuilder.text("COUNT("),
                        new SqlTemplate.Tokens(args.first(), args.end()), TemplateBuilder.text(")")));
                a = new PendingAggregate(AggregateKind.AVG, sum, count, null);
                break;
            }
            default:
                throw new PlanningException(name + "() across shards is not supported");
        }
        aggregates.add(a);
        return a;
    }

    /** The select item an ORDER/GROUP BY item refers to: by position, by alias, or as the same expression. */
    private Integer findItem(OrderItem o) {
        if (o.isOrdinal()) {
            if (star) {
                throw new PlanningException("ORDER BY or GROUP BY a column position with SELECT * across shards is not"
                        + " supported; name the column");
            }
            if (o.ordinal() > select.items().size()) {
                throw new PlanningException(1054, "42S22", "Unknown column '" + o.ordinal() + "' in 'order clause'");
            }
            return o.ordinal() - 1;
        }
        return findItem(o.expr());
    }

    private Integer findItem(Expr e) {
        if (e instanceof Expr.ColumnRef c && c.table() == null) {
            for (int i = 0; i < select.items().size(); i++) {
                if (select.items().get(i) instanceof SelectItem.Column item && item.alias() != null
                        && item.alias().equalsIgnoreCase(c.column())) {
                    return i;
                }
            }
        }
        for (int i = 0; i < select.items().size(); i++) {
            if (select.items().get(i) instanceof SelectItem.Column item && ctx.sameTokens(item.expr().span(), e.span())) {
                return i;
            }
        }
        return null;
    }

    // ---- hidden columns --------------------------------------------------------------------

    private Col weightOfItem(int item) {
        Col w = itemWeights.get(item);
        if (w == null) {
            SelectItem.Column c = (SelectItem.Column) select.items().get(item);
            w = addHidden(weightPieces(c.expr().span()));
            itemWeights.put(item, w);
        }
        return w;
    }

    private Col addHidden(List<SqlTemplate.Piece> pieces) {
        hidden.add(pieces);
        return Col.hidden(hidden.size() - 1);
    }

    private static List<SqlTemplate.Piece> exprPieces(Expr e) {
        return List.of(TemplateBuilder.tokens(e.span()));
    }

    /**
     * The server's sort key of a value in its collation. WEIGHT_STRING keeps trailing spaces,
     * which PAD SPACE collations ignore ('a ' = 'a'): there the value is weighed without them.
     * {@code x = RTRIM(x)} holds exactly when trailing spaces do not count or there are none, so
     * the key is right for PAD SPACE and NO PAD collations alike. (Under PAD SPACE a value ending
     * in a character that sorts below the space, as a tab, still orders after its trimmed prefix.)
     */
    private static List<SqlTemplate.Piece> weightPieces(Span span) {
        SqlTemplate.Piece x = TemplateBuilder.tokens(span);
        return List.of(TemplateBuilder.text("WEIGHT_STRING(IF("), x, TemplateBuilder.text(" = RTRIM("), x,
                TemplateBuilder.text("), RTRIM("), x, TemplateBuilder.text("), "), x, TemplateBuilder.text("))"));
    }

    private static int index(Col c, int hiddenCount) {
        if (c == null) {
            return MergeSpec.NONE;
        }
        return c.item() >= 0 ? c.item() : c.hidden() - hiddenCount;
    }

    private ValueRef valueRef(Expr e) {
        if (e instanceof Expr.Slot s) {
            return new ValueRef.Slot(s.slot());
        }
        throw new PlanningException("LIMIT with " + ctx.text(e.span()) + " across shards is not supported");
    }

    /** The largest LIMIT the server takes: every row, whatever sql_select_limit says. */
    private static final String ALL_ROWS = "LIMIT 18446744073709551615";

    private void refuseWindows(Expr e) {
        if (!windowsByKey && Exprs.anyMatch(e, x -> x instanceof Expr.FunctionCall f && f.isWindow())) {
            throw new PlanningException("window functions across shards are not supported");
        }
        if (Exprs.anyMatch(e, x -> x instanceof Expr.FunctionCall f
                && f.upperName().toUpperCase(Locale.ROOT).equals("FOUND_ROWS"))) {
            throw new PlanningException("FOUND_ROWS() across shards is not supported");
        }
    }
}
