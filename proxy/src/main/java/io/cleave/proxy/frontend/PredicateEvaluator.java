package io.cleave.proxy.frontend;

import io.cleave.proxy.merge.MergeNotSupportedException;
import io.cleave.proxy.merge.ResultColumn;
import io.cleave.proxy.merge.TextRow;
import io.cleave.router.plan.MergeSpec;
import io.cleave.router.plan.ParameterValues;
import io.cleave.router.plan.Predicate;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Evaluates a merged HAVING on merged rows: numbers compare as numbers when either side is
 * numeric (as the server does), binary strings byte by byte, and any comparison with NULL is not
 * true (except NULL-safe equality). Strings in a collation are refused (see {@link #refuseCollated}).
 */
final class PredicateEvaluator {

    private final List<ResultColumn> columns;
    private final ParameterValues values;

    PredicateEvaluator(List<ResultColumn> columns, ParameterValues values) {
        this.columns = columns;
        this.values = values;
    }

    boolean test(Predicate p, TextRow row) {
        Boolean r = eval(p, row);
        return r != null && r;
    }

    private Boolean eval(Predicate p, TextRow row) {
        if (p instanceof Predicate.And a) {
            Boolean result = true;
            for (Predicate t : a.terms()) {
                Boolean v = eval(t, row);
                if (v != null && !v) {
                    return false;
                }
                if (v == null) {
                    result = null;
                }
            }
            return result;
        }
        if (p instanceof Predicate.Or o) {
            Boolean result = false;
            for (Predicate t : o.terms()) {
                Boolean v = eval(t, row);
                if (v != null && v) {
                    return true;
                }
                if (v == null) {
                    result = null;
                }
            }
            return result;
        }
        if (p instanceof Predicate.Not n) {
            Boolean v = eval(n.term(), row);
            return v == null ? null : !v;
        }
        if (p instanceof Predicate.IsNull n) {
            boolean isNull = text(n.operand(), row) == null;
            return n.negated() != isNull;
        }
        Predicate.Compare c = (Predicate.Compare) p;
        String left = text(c.left(), row);
        String right = text(c.right(), row);
        if (left == null || right == null) {
            return c.op() == Predicate.Op.NULL_SAFE_EQ ? left == null && right == null : null;
        }
        int cmp;
        if (numeric(c.left()) || numeric(c.right())) {
            cmp = number(left).compareTo(number(right));
        } else {
            refuseCollated(c.left());
            refuseCollated(c.right());
            // Binary strings and temporal text: byte order is the server's order.
            cmp = compareBytes(left, right);
        }
        switch (c.op()) {
            case EQ:
            case NULL_SAFE_EQ:
                return cmp == 0;
            case NE:
                return cmp != 0;
            case LT:
                return cmp < 0;
            case LE:
                return cmp <= 0;
            case GT:
                return cmp > 0;
            default:
                return cmp >= 0;
        }
    }

    private String text(Predicate.Operand o, TextRow row) {
        if (o instanceof Predicate.SlotOperand s) {
            return values.text(s.slot());
        }
        int column = MergeSpec.resolve(((Predicate.ColumnOperand) o).column(), row.columns());
        return row.string(column);
    }

    /**
     * Strings in a collation compare by its rules (case, accents, expansions), which the proxy
     * does not know: such a HAVING condition is refused rather than answered approximately.
     */
    private void refuseCollated(Predicate.Operand o) {
        if (o instanceof Predicate.ColumnOperand col) {
            ResultColumn c = columns.get(MergeSpec.resolve(col.column(), columns.size()));
            if (c.isCollatedString()) {
                throw new MergeNotSupportedException("HAVING compares the string column '" + c.name() + "' with an"
                        + " aggregate's value or another string after merging shards, which needs its collation: not"
                        + " supported across shards (compare group columns on their own, or in WHERE)");
            }
        }
    }

    private static int compareBytes(String a, String b) {
        return Arrays.compareUnsigned(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
    }

    private boolean numeric(Predicate.Operand o) {
        if (o instanceof Predicate.SlotOperand s) {
            return values.isNumeric(s.slot());
        }
        ResultColumn c = columns.get(MergeSpec.resolve(((Predicate.ColumnOperand) o).column(), columns.size()));
        return c.type().isInteger() || c.type().isDecimal() || c.type().isFloatingPoint();
    }

    /** A string as the number the server would read from it (leading numeric part; 0 if none). */
    private static BigDecimal number(String s) {
        String t = s.strip();
        int end = 0;
        while (end < t.length() && (Character.isDigit(t.charAt(end)) || "+-.eE".indexOf(t.charAt(end)) >= 0)) {
            end++;
        }
        while (end > 0) {
            try {
                return new BigDecimal(t.substring(0, end));
            } catch (NumberFormatException e) {
                end--;
            }
        }
        return BigDecimal.ZERO;
    }
}
