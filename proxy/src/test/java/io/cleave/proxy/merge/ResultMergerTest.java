package io.cleave.proxy.merge;

import io.cleave.proxy.protocol.ColumnType;
import io.cleave.proxy.protocol.packet.server.ColumnDefinition41;
import io.cleave.router.plan.AggregateKind;
import io.cleave.router.plan.AggregateSpec;
import io.cleave.router.plan.GroupKey;
import io.cleave.router.plan.Grouping;
import io.cleave.router.plan.MergeSpec;
import io.cleave.router.plan.SortKey;
import io.cleave.router.plan.ValueRef;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.cleave.router.plan.MergeSpec.NONE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResultMergerTest {

    private static ResultColumn col(String name, ColumnType type, int collation, int decimals) {
        return new ResultColumn(new ColumnDefinition41("db", "t", "t", name, name, collation, 20, type.code(), 0,
                decimals), null);
    }

    private static final ResultColumn NAME = col("name", ColumnType.VAR_STRING, 45, 0);
    private static final ResultColumn WEIGHT = col("w", ColumnType.VAR_STRING, 63, 0);
    private static final ResultColumn COUNT = col("COUNT(*)", ColumnType.LONGLONG, 63, 0);
    private static final ResultColumn SUM = col("AVG(k)", ColumnType.NEWDECIMAL, 63, 0);
    private static final ResultColumn N = col("n", ColumnType.LONGLONG, 63, 0);

    private static TextRow row(String... values) {
        byte[][] bytes = new byte[values.length][];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = values[i] == null ? null : values[i].getBytes(StandardCharsets.UTF_8);
        }
        return TextRow.of(bytes);
    }

    private static List<List<String>> values(List<TextRow> rows, int visible) {
        List<List<String>> out = new ArrayList<>();
        for (TextRow r : rows) {
            List<String> v = new ArrayList<>();
            for (int c = 0; c < visible; c++) {
                v.add(r.string(c));
            }
            out.add(v);
        }
        return out;
    }

    @Test
    void regroupsPartialCountsAndAveragesAcrossShards() {
        // SELECT name, COUNT(*), AVG(k) ... GROUP BY name, rewritten as name, COUNT(*), SUM(k), COUNT(k), WEIGHT_STRING(name)
        List<ResultColumn> columns = List.of(NAME, COUNT, SUM, N, WEIGHT);
        Grouping grouping = new Grouping(List.of(new GroupKey(0, -1)), List.of(
                new AggregateSpec(AggregateKind.COUNT, 1, NONE, NONE),
                new AggregateSpec(AggregateKind.AVG, 2, -2, NONE)), null);
        MergeSpec spec = new MergeSpec(2, List.of(), grouping, false, null, null);
        List<TextRow> rows = List.of(
                row("abc", "2", "10", "2", "ABC"), // shard 0
                row("zed", "1", "1", "1", "ZED"),
                row("ABC", "1", "5", "1", "ABC"), // shard 1: same group under a _ci collation
                row("Mid", "3", "7", "3", "MID"));
        ResultMerger merger = new ResultMerger(spec, columns);
        List<TextRow> merged = merger.merge(rows, 0, 0, null);
        assertThat(values(merged, 3)).containsExactly(
                List.of("abc", "3", "5.0000"),
                List.of("Mid", "3", "2.3333"),
                List.of("zed", "1", "1.0000"));
        assertThat(merger.outputColumns().get(2).definition().decimals()).isEqualTo(4);
    }

    @Test
    void averageHonoursTheSessionsDivPrecisionIncrement() {
        List<ResultColumn> columns = List.of(SUM, N);
        Grouping grouping = new Grouping(List.of(), List.of(new AggregateSpec(AggregateKind.AVG, 0, -1, NONE)), null);
        MergeSpec spec = new MergeSpec(1, List.of(), grouping, false, null, null);
        List<TextRow> rows = List.of(row("10", "3"), row("1", "3"));
        assertThat(new ResultMerger(spec, columns, new SessionMergeSettings(Long.MAX_VALUE, 7))
                .divide(new java.math.BigDecimal("2191.30"), 42, 2).toPlainString()).isEqualTo("52.173809523");
        assertThat(new ResultMerger(spec, columns, new SessionMergeSettings(Long.MAX_VALUE, 4))
                .divide(new java.math.BigDecimal("-2.5"), 3, 1).toPlainString()).isEqualTo("-0.83333");
        for (int increment : new int[] {0, 2, 9}) {
            ResultMerger merger = new ResultMerger(spec, columns, new SessionMergeSettings(Long.MAX_VALUE, increment));
            // 11 / 6 = 1.8333...: worked out to whole 9-digit words (none for scale 0) and cut, then rounded
            // half up; as MariaDB answers (with 0 it says 1, with 2 it says 1.83).
            String expected = increment == 0 ? "1" : increment == 2 ? "1.83" : "1.833333333";
            assertThat(values(merger.merge(rows, 0, Long.MAX_VALUE, null), 1)).containsExactly(List.of(expected));
            assertThat(merger.outputColumns().get(0).definition().decimals()).isEqualTo(increment);
        }
    }

    @Test
    void sqlSelectLimitCapsMergedRowsOfAStatementWithoutItsOwnLimit() {
        SessionMergeSettings five = SessionMergeSettings.of(java.util.Map.of("sql_select_limit", "2"));
        MergeSpec unlimited = new MergeSpec(0, List.of(new SortKey(0, false, NONE)), null, false, null, null);
        List<TextRow> rows = List.of(row("3"), row("1"), row("4"), row("2"));
        assertThat(values(new ResultMerger(unlimited, List.of(N), five).merge(rows, 0, Long.MAX_VALUE, null), 1))
                .containsExactly(List.of("1"), List.of("2"));
        MergeSpec limited = new MergeSpec(0, List.of(new SortKey(0, false, NONE)), null, false,
                new ValueRef.Constant(0), new ValueRef.Constant(3));
        assertThat(new ResultMerger(limited, List.of(N), five).merge(rows, 0, 3, null)).hasSize(3);
        assertThat(SessionMergeSettings.of(java.util.Map.of("sql_select_limit", "18446744073709551615")).selectLimit())
                .isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void ordersWithLimitAndOffsetAfterMerging() {
        List<ResultColumn> columns = List.of(N, NAME, WEIGHT);
        MergeSpec spec = new MergeSpec(1, List.of(new SortKey(1, false, -1), new SortKey(0, true, NONE)), null, false,
                new ValueRef.Constant(1), new ValueRef.Constant(3));
        List<TextRow> rows = List.of(row("1", "b", "B"), row("2", null, null), row("3", "a", "A"),
                row("4", "B", "B"), row("5", "c", "C"));
        List<TextRow> merged = new ResultMerger(spec, columns).merge(rows, 1, 3, null);
        // NULL first; then a; then b/B tie broken by n DESC; then c. Offset 1, count 3.
        assertThat(values(merged, 2)).containsExactly(Arrays.asList("3", "a"), Arrays.asList("4", "B"),
                Arrays.asList("1", "b"));
    }

    @Test
    void aLimitOfAllRowsTakesEverythingAfterTheOffset() {
        // LIMIT 2, 18446744073709551615: the count arrives as Long.MAX_VALUE.
        MergeSpec spec = new MergeSpec(0, List.of(new SortKey(0, false, NONE)), null, false,
                new ValueRef.Constant(2), new ValueRef.Constant(Long.MAX_VALUE));
        List<TextRow> rows = List.of(row("3"), row("1"), row("4"), row("2"));
        List<TextRow> merged = new ResultMerger(spec, List.of(N)).merge(rows, 2, Long.MAX_VALUE, null);
        assertThat(values(merged, 1)).containsExactly(List.of("3"), List.of("4"));
        assertThat(new ResultMerger(spec, List.of(N)).merge(rows, 9, Long.MAX_VALUE, null)).isEmpty();
    }

    @Test
    void averageOfADecimalIsTypedAsTheServerTypesIt() {
        // SUM(DECIMAL(12,2)) is DECIMAL(34,2): length 34 digits + point + sign; AVG is DECIMAL(16,6).
        ColumnDefinition41 sum = new ColumnDefinition41("db", "t", "t", "AVG(x)", "", 63, 36,
                ColumnType.NEWDECIMAL.code(), 0, 2);
        ColumnDefinition41 avg = ResultMerger.averageDefinition(sum, 4);
        assertThat(avg.columnLength()).isEqualTo(18);
        assertThat(avg.decimals()).isEqualTo(6);
        // SUM(INT) is DECIMAL(32,0) (length 33); AVG(INT) is DECIMAL(14,4).
        ColumnDefinition41 intSum = new ColumnDefinition41("db", "t", "t", "AVG(k)", "", 63, 33,
                ColumnType.NEWDECIMAL.code(), 0, 0);
        assertThat(ResultMerger.averageDefinition(intSum, 4).columnLength()).isEqualTo(16);
        assertThat(ResultMerger.averageDefinition(intSum, 4).decimals()).isEqualTo(4);
        // With div_precision_increment 0, AVG(INT) is DECIMAL(10,0): no point in its length.
        assertThat(ResultMerger.averageDefinition(intSum, 0).columnLength()).isEqualTo(11);
    }

    @Test
    void countWithoutGroupByOverNoRowsIsZero() {
        MergeSpec spec = new MergeSpec(0, List.of(), new Grouping(List.of(), List.of(
                new AggregateSpec(AggregateKind.COUNT, 0, NONE, NONE), new AggregateSpec(AggregateKind.SUM, 1, NONE, NONE)),
                null), false, null, null);
        List<TextRow> merged = new ResultMerger(spec, List.of(COUNT, SUM)).merge(List.of(), 0, 0, null);
        assertThat(values(merged, 2)).containsExactly(Arrays.asList("0", null));
    }

    @Test
    void minAndMaxOfStringsFollowWeights() {
        List<ResultColumn> columns = List.of(NAME, WEIGHT);
        MergeSpec spec = new MergeSpec(1, List.of(), new Grouping(List.of(), List.of(
                new AggregateSpec(AggregateKind.MIN, 0, NONE, -1)), null), false, null, null);
        List<TextRow> merged = new ResultMerger(spec, columns).merge(
                List.of(row("b", "B"), row("Äpfel", "A"), row(null, null)), 0, 0, null);
        assertThat(values(merged, 1)).containsExactly(List.of("Äpfel"));
    }

    @Test
    void havingFiltersMergedGroups() {
        List<ResultColumn> columns = List.of(N, COUNT);
        MergeSpec spec = new MergeSpec(0, List.of(), new Grouping(List.of(new GroupKey(0, NONE)),
                List.of(new AggregateSpec(AggregateKind.COUNT, 1, NONE, NONE)), null), false, null, null);
        List<TextRow> merged = new ResultMerger(spec, columns).merge(
                List.of(row("1", "1"), row("2", "5"), row("1", "1")), 0, 0, r -> Long.parseLong(r.string(1)) > 1);
        assertThat(values(merged, 2)).containsExactly(List.of("1", "2"), List.of("2", "5"));
    }

    @Test
    void orderingByEnumIsRefused() {
        ResultColumn e = new ResultColumn(new ColumnDefinition41("db", "t", "t", "e", "e", 45, 5,
                ColumnType.STRING.code(), 256, 0), null);
        MergeSpec spec = new MergeSpec(0, List.of(new SortKey(0, false, NONE)), null, false, null, null);
        assertThatThrownBy(() -> new ResultMerger(spec, List.of(e)).merge(List.of(row("x"), row("y")), 0, 0, null))
                .isInstanceOf(MergeNotSupportedException.class).hasMessageContaining("ENUM");
    }

    @Test
    void numbersCompareAsNumbers() {
        List<ResultColumn> columns = List.of(col("d", ColumnType.NEWDECIMAL, 63, 2), col("f", ColumnType.DOUBLE, 63, 31),
                col("t", ColumnType.TIME, 63, 0));
        MergeSpec byDecimal = new MergeSpec(0, List.of(new SortKey(0, false, NONE)), null, false, null, null);
        List<TextRow> rows = List.of(row("10.50", "1e20", "-01:00:00"), row("9.75", "2.5", "100:00:00"),
                row("-3.00", "-0.5", "00:00:01"));
        assertThat(values(new ResultMerger(byDecimal, columns).merge(rows, 0, 0, null), 1))
                .containsExactly(List.of("-3.00"), List.of("9.75"), List.of("10.50"));
        MergeSpec byDouble = new MergeSpec(0, List.of(new SortKey(1, true, NONE)), null, false, null, null);
        assertThat(values(new ResultMerger(byDouble, columns).merge(rows, 0, 0, null), 1))
                .containsExactly(List.of("10.50"), List.of("9.75"), List.of("-3.00"));
        MergeSpec byTime = new MergeSpec(0, List.of(new SortKey(2, false, NONE)), null, false, null, null);
        assertThat(values(new ResultMerger(byTime, columns).merge(rows, 0, 0, null), 1))
                .containsExactly(List.of("10.50"), List.of("-3.00"), List.of("9.75"));
    }

    @Test
    void doublesPrintLikeTheServer() {
        assertThat(MysqlNumbers.formatDouble(3.0)).isEqualTo("3");
        assertThat(MysqlNumbers.formatDouble(0.1 + 0.2)).isEqualTo("0.30000000000000004");
        assertThat(MysqlNumbers.formatDouble(1e20)).isEqualTo("1e20");
        assertThat(MysqlNumbers.formatDouble(-2.5e-7)).isEqualTo("-2.5e-7");
        assertThat(MysqlNumbers.formatDouble(123456.75)).isEqualTo("123456.75");
    }
}
