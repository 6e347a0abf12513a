package io.cleave.proxy.merge;

import io.cleave.proxy.protocol.packet.server.ColumnDefinition41;
import io.cleave.router.plan.AggregateKind;
import io.cleave.router.plan.AggregateSpec;
import io.cleave.router.plan.GroupKey;
import io.cleave.router.plan.Grouping;
import io.cleave.router.plan.MergeSpec;
import io.cleave.router.plan.SortKey;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Combines the rows several shards returned for one statement into the rows one server would have
 * returned: re-aggregates partial groups, orders, and applies OFFSET/LIMIT. Works on buffered
 * rows; the shards already applied LIMIT offset+count, so that is at most N x (offset+count).
 */
public final class ResultMerger {

    /** Digits the server adds to a DECIMAL argument's precision for SUM (DECIMAL_LONGLONG_DIGITS). */
    private static final int SUM_PRECISION_INCREMENT = 22;
    private static final int MAX_DECIMAL_PRECISION = 65;
    private static final int MAX_DECIMAL_SCALE = 38;

    private final MergeSpec spec;
    private final List<ResultColumn> columns;
    private final SessionMergeSettings session;

    /** {@code columns}: every column the shards returned, helpers included. */
    public ResultMerger(MergeSpec spec, List<ResultColumn> columns) {
        this(spec, columns, SessionMergeSettings.DEFAULT);
    }

    public ResultMerger(MergeSpec spec, List<ResultColumn> columns, SessionMergeSettings session) {
        this.spec = spec.resolved(columns.size());
        this.columns = columns;
        this.session = session;
    }

    /** Columns the client sees (the helpers at the right are not shown). */
    public int visibleColumns() {
        return columns.size() - spec.hiddenColumns();
    }

    /**
     * The merged rows (all columns; the writer shows only the visible ones). Without a LIMIT of
     * its own, the statement gets the session's sql_select_limit, as on one server.
     *
     * @param offset the statement's OFFSET (0 without a LIMIT)
     * @param count  the statement's LIMIT count ({@link Long#MAX_VALUE} without one)
     * @param having evaluates the HAVING predicate on a merged row (null when there is none)
     */
    public List<TextRow> merge(List<TextRow> rows, long offset, long count, RowFilter having) {
        List<TextRow> out = rows;
        if (spec.grouping() != null) {
            out = group(rows, spec.grouping(), having);
        }
        if (!spec.order().isEmpty()) {
            out = new ArrayList<>(out);
            out.sort(orderComparator(spec.order()));
        }
        long limit = spec.hasLimit() ? count : session.selectLimit();
        long skip = spec.hasLimit() ? offset : 0;
        if (skip > 0 || limit < out.size()) {
            int from = (int) Math.min(skip, out.size());
            int to = limit >= out.size() - from ? out.size() : from + (int) Math.max(0, limit);
            out = out.subList(from, to);
        }
        return out;
    }

    /** The column definitions to send, adjusted where the merge changes a type (AVG's precision and scale). */
    public List<ResultColumn> outputColumns() {
        List<ResultColumn> out = new ArrayList<>(columns.subList(0, visibleColumns()));
        if (spec.grouping() == null) {
            return out;
        }
        for (AggregateSpec a : spec.grouping().aggregates()) {
            if (a.kind() == AggregateKind.AVG && a.column() < out.size() && a.typeColumn() >= 0) {
                // As the shard typed its own AVG of the same argument, under the same session settings.
                ColumnDefinition41 shown = out.get(a.column()).definition();
                ColumnDefinition41 avg = columns.get(a.typeColumn()).definition();
                out.set(a.column(), new ResultColumn(shown.withType(avg.type(), avg.columnLength(), avg.flags(),
                        avg.decimals()), null));
            } else if (a.kind() == AggregateKind.AVG && a.column() < out.size()) {
                ResultColumn sum = out.get(a.column());
                if (sum.type().isDecimal()) {
                    out.set(a.column(), new ResultColumn(averageDefinition(sum.definition(),
                            session.divPrecisionIncrement()), null));
                }
            }
        }
        return out;
    }

    /**
     * The definition the server gives AVG(x), from the one it gave SUM(x) for the same x. For an
     * argument of precision p and scale s the server types SUM as DECIMAL(min(p + 22, 65), s) and
     * AVG as DECIMAL(min(p + d, 65), min(s + d, 38)) where d is div_precision_increment; a SUM at
     * the 65-digit cap hides p, and AVG is then taken as 65 digits wide.
     */
    static ColumnDefinition41 averageDefinition(ColumnDefinition41 sum, int increment) {
        int sign = sum.unsigned() ? 0 : 1;
        long sumPrecision = sum.columnLength() - sign - (sum.decimals() > 0 ? 1 : 0);
        long precision = sumPrecision >= MAX_DECIMAL_PRECISION ? MAX_DECIMAL_PRECISION
                : Math.min(MAX_DECIMAL_PRECISION, sumPrecision - SUM_PRECISION_INCREMENT + increment);
        int scale = Math.min(MAX_DECIMAL_SCALE, sum.decimals() + increment);
        // The length counts the sign and, with decimals, the point.
        return sum.withType(sum.type(), precision + (scale > 0 ? 1 : 0) + sign, sum.flags(), scale);
    }

    /** A predicate on merged rows. */
    @FunctionalInterface
    public interface RowFilter {
        boolean test(TextRow row);
    }

    private List<TextRow> group(List<TextRow> rows, Grouping grouping, RowFilter having) {
        List<GroupKey> keys = grouping.keys();
        List<TextRow> sorted = new ArrayList<>(rows);
        Comparator<TextRow> byKey = (a, b) -> {
            for (GroupKey k : keys) {
                int c = ValueOrder.compare(columns.get(k.column()), k.column(), k.weightColumn(), a, b);
                if (c != 0) {
                    return c;
                }
            }
            return 0;
        };
        if (!keys.isEmpty()) {
            sorted.sort(byKey);
        }
        List<TextRow> out = new ArrayList<>();
        int start = 0;
        while (start < sorted.size()) {
            int end = start + 1;
            while (end < sorted.size() && byKey.compare(sorted.get(start), sorted.get(end)) == 0) {
                end++;
            }
            TextRow merged = combine(sorted.subList(start, end), grouping.aggregates());
            if (having == null || having.test(merged)) {
                out.add(merged);
            }
            start = end;
        }
        if (keys.isEmpty() && out.isEmpty() && having == null && !grouping.aggregates().isEmpty()) {
            out.add(combine(List.of(), grouping.aggregates()));
        }
        return out;
    }

    private TextRow combine(List<TextRow> group, List<AggregateSpec> aggregates) {
        int width = columns.size();
        byte[][] values = new byte[width][];
        if (!group.isEmpty()) {
            TextRow first = group.get(0);
            for (int c = 0; c < width; c++) {
                values[c] = first.bytes(c);
            }
        }
        for (AggregateSpec a : aggregates) {
            switch (a.kind()) {
                case COUNT:
                    long total = 0;
                    for (TextRow r : group) {
                        if (!r.isNull(a.column())) {
                            total += Long.parseLong(r.string(a.column()));
                        }
                    }
                    values[a.column()] = ascii(Long.toString(total));
                    break;
                case SUM:
                    values[a.column()] = sum(group, a.column());
                    break;
                case AVG:
                    values[a.column()] = average(group, a);
                    break;
                case MIN:
                case MAX:
                    TextRow best = extreme(group, a, a.kind() == AggregateKind.MIN);
                    values[a.column()] = best == null ? null : best.bytes(a.column());
                    if (a.weightColumn() >= 0) {
                        values[a.weightColumn()] = best == null ? null : best.bytes(a.weightColumn());
                    }
                    break;
                case FIRST:
                default:
                    break;
            }
        }
        return TextRow.of(values);
    }

    private byte[] sum(List<TextRow> group, int column) {
        boolean floating = columns.get(column).type().isFloatingPoint();
        BigDecimal decimal = null;
        double dbl = 0;
        boolean any = false;
        for (TextRow r : group) {
            if (r.isNull(column)) {
                continue;
            }
            any = true;
            if (floating) {
                dbl += Double.parseDouble(r.string(column));
            } else {
                BigDecimal v = new BigDecimal(r.string(column));
                decimal = decimal == null ? v : decimal.add(v);
            }
        }
        if (!any) {
            return null;
        }
        return ascii(floating ? MysqlNumbers.formatDouble(dbl) : decimal.toPlainString());
    }

    private byte[] average(List<TextRow> group, AggregateSpec a) {
        boolean floating = columns.get(a.column()).type().isFloatingPoint();
        BigDecimal sum = BigDecimal.ZERO;
        double dsum = 0;
        long n = 0;
        for (TextRow r : group) {
            if (r.isNull(a.column()) || r.isNull(a.countColumn())) {
                continue;
            }
            long c = Long.parseLong(r.string(a.countColumn()));
            if (c == 0) {
                continue;
            }
            n += c;
            if (floating) {
                dsum += Double.parseDouble(r.string(a.column()));
            } else {
                sum = sum.add(new BigDecimal(r.string(a.column())));
            }
        }
        if (n == 0) {
            return null;
        }
        if (floating) {
            return ascii(MysqlNumbers.formatDouble(dsum / n));
        }
        return ascii(divide(sum, n, columns.get(a.column()).definition().decimals()).toPlainString());
    }

    /**
     * SUM / COUNT as the server's decimal division computes it: the quotient of a sum of scale
     * {@code s} is worked out to whole 9-digit words covering s + div_precision_increment digits,
     * cut there, then rounded half up to s + div_precision_increment digits. (With a scale of 9 or
     * 18 the cut is the result: the server truncates.)
     */
    BigDecimal divide(BigDecimal sum, long count, int sumScale) {
        int scale = Math.min(MAX_DECIMAL_SCALE, sumScale + session.divPrecisionIncrement());
        int worked = (sumScale + session.divPrecisionIncrement() + DIGITS_PER_WORD - 1) / DIGITS_PER_WORD
                * DIGITS_PER_WORD;
        return sum.divide(BigDecimal.valueOf(count), Math.max(worked, scale), RoundingMode.DOWN)
                .setScale(scale, RoundingMode.HALF_UP);
    }

    /** The server's decimals are stored in words of 9 digits. */
    private static final int DIGITS_PER_WORD = 9;

    private TextRow extreme(List<TextRow> group, AggregateSpec a, boolean min) {
        TextRow best = null;
        for (TextRow r : group) {
            if (r.isNull(a.column())) {
                continue;
            }
            if (best == null) {
                best = r;
                continue;
            }
            int c = ValueOrder.compare(columns.get(a.column()), a.column(), a.weightColumn(), r, best);
            if (min ? c < 0 : c > 0) {
                best = r;
            }
        }
        return best;
    }

    private Comparator<TextRow> orderComparator(List<SortKey> keys) {
        return (a, b) -> {
            for (SortKey k : keys) {
                int c = ValueOrder.compare(columns.get(k.column()), k.column(), k.weightColumn(), a, b);
                if (c != 0) {
                    return k.descending() ? -c : c;
                }
            }
            return 0;
        };
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
