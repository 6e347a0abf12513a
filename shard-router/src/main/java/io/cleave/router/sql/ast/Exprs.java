package io.cleave.router.sql.ast;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;

/** Traversal helpers over expressions. None of them descends into subqueries unless it says so. */
public final class Exprs {

    private Exprs() {
    }

    /**
     * Splits a condition into its AND-conjuncts, in source order: {@code a AND (b AND c)} gives
     * [a, b, c]. Null gives an empty list; a condition without AND gives itself.
     */
    public static List<Expr> conjuncts(Expr condition) {
        List<Expr> out = new ArrayList<>();
        if (condition != null) {
            addConjuncts(condition, out);
        }
        return out;
    }

    private static void addConjuncts(Expr e, List<Expr> out) {
        if (e instanceof Expr.Binary b && b.op() == Expr.BinaryOp.AND) {
            addConjuncts(b.left(), out);
            addConjuncts(b.right(), out);
        } else {
            out.add(e);
        }
    }

    /** Visits {@code root} and every expression below it, pre-order, not entering subqueries. */
    public static void walk(Expr root, Consumer<Expr> visitor) {
        Deque<Expr> stack = new ArrayDeque<>();
        stack.push(root);
        while (!stack.isEmpty()) {
            Expr e = stack.pop();
            visitor.accept(e);
            List<Expr> children = e.children();
            for (int i = children.size() - 1; i >= 0; i--) {
                stack.push(children.get(i));
            }
        }
    }

    /** True if {@code test} holds for {@code root} or any expression below it (subqueries excluded). */
    public static boolean anyMatch(Expr root, Predicate<Expr> test) {
        Deque<Expr> stack = new ArrayDeque<>();
        stack.push(root);
        while (!stack.isEmpty()) {
            Expr e = stack.pop();
            if (test.test(e)) {
                return true;
            }
            for (Expr child : e.children()) {
                stack.push(child);
            }
        }
        return false;
    }

    /** True if the expression contains a group aggregate of its own query (COUNT, SUM, ...; not in subqueries). */
    public static boolean containsAggregate(Expr root) {
        return anyMatch(root, e -> e instanceof Expr.FunctionCall f && f.isAggregate());
    }

    /** True if the expression contains a subquery. */
    public static boolean containsSubquery(Expr root) {
        return anyMatch(root, e -> !e.subqueries().isEmpty());
    }

    /** The column references below {@code root}, in source order (subqueries excluded). */
    public static List<Expr.ColumnRef> columns(Expr root) {
        List<Expr.ColumnRef> out = new ArrayList<>();
        walk(root, e -> {
            if (e instanceof Expr.ColumnRef c) {
                out.add(c);
            }
        });
        return out;
    }

    /** The slot numbers used below {@code root}, in source order (subqueries excluded). */
    public static List<Integer> slots(Expr root) {
        List<Integer> out = new ArrayList<>();
        walk(root, e -> {
            if (e instanceof Expr.Slot s) {
                out.add(s.slot());
            }
        });
        return out;
    }
}
