package io.cleave.bench.tpcc.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class TpccRandomTest {
    private final TpccRandom random = new TpccRandom(42);

    @Test
    void uniformIsInclusiveAtBothEnds() {
        int[] seen = new int[11];
        for (int i = 0; i < 10_000; i++) {
            int v = random.uniform(5, 15);
            assertThat(v).isBetween(5, 15);
            seen[v - 5]++;
        }
        assertThat(seen).doesNotContain(0);
    }

    @Test
    void nuRandStaysInRangeForTheThreeSpecifiedShapes() {
        assertRangeCovered(255, 0, 999, 200_000);
        assertRangeCovered(1023, 1, 3000, 300_000);
        for (int i = 0; i < 200_000; i++) {
            assertThat(random.nuRand(8191, 1, 100_000, 4711)).isBetween(1, 100_000);
        }
    }

    @Test
    void nuRandIsSkewedUnlikeUniform() {
        // OR-ing with a value in [0, 255] favours numbers with many low bits set: the hottest
        // last-name number comes up far more often than the coldest.
        int[] counts = new int[1000];
        for (int i = 0; i < 1_000_000; i++) {
            counts[random.nuRand(255, 0, 999, 0)]++;
        }
        int max = Arrays.stream(counts).max().orElseThrow();
        int min = Arrays.stream(counts).min().orElseThrow();
        assertThat(max).isGreaterThan(5 * Math.max(1, min));
        // Uniform would give 1,000 each. A value whose low 8 bits are all set is reached by 3^8 of
        // the 256 x 1,000 (r1, r2) pairs: 6561 / 256 = 25.6 times the uniform share, and no more.
        assertThat(max).isBetween(20_000, 30_000);
    }

    @Test
    void nuRandConstantShiftsTheDistribution() {
        int[] withZero = new int[1000];
        int[] withHundred = new int[1000];
        TpccRandom a = new TpccRandom(7);
        TpccRandom b = new TpccRandom(7);
        for (int i = 0; i < 100_000; i++) {
            withZero[a.nuRand(255, 0, 999, 0)]++;
            withHundred[b.nuRand(255, 0, 999, 100)]++;
        }
        for (int v = 0; v < 1000; v++) {
            assertThat(withHundred[(v + 100) % 1000]).isEqualTo(withZero[v]);
        }
    }

    @Test
    void stringsHaveTheAskedLengthsAndAlphabets() {
        for (int i = 0; i < 1_000; i++) {
            assertThat(random.alphaString(8, 16)).hasSizeBetween(8, 16).matches("[0-9A-Za-z]+");
            assertThat(random.numericString(16, 16)).hasSize(16).matches("[0-9]+");
            assertThat(random.zip()).hasSize(9).matches("[0-9]{4}11111");
            assertThat(random.state()).matches("[A-Z]{2}");
        }
    }

    @Test
    void aboutTenPercentOfDataCarriesOriginal() {
        int original = 0;
        for (int i = 0; i < 20_000; i++) {
            String data = random.data(26, 50);
            assertThat(data).hasSizeBetween(26, 50);
            if (data.contains("ORIGINAL")) {
                original++;
            }
        }
        assertThat(original).isBetween(1_700, 2_300);
    }

    @Test
    void decimalsKeepTheirScaleAndBounds() {
        for (int i = 0; i < 1_000; i++) {
            BigDecimal tax = random.decimal(0, 2000, 4);
            assertThat(tax.scale()).isEqualTo(4);
            assertThat(tax).isBetween(BigDecimal.ZERO, new BigDecimal("0.2000"));
        }
    }

    @Test
    void permutationHoldsEachNumberOnce() {
        int[] p = random.permutation(3000);
        assertThat(Arrays.stream(p).sorted().toArray()).isEqualTo(IntStream.rangeClosed(1, 3000).toArray());
        assertThat(p).isNotEqualTo(IntStream.rangeClosed(1, 3000).toArray());
    }

    @Test
    void otherWarehouseIsNeverHomeAndCoversTheRest() {
        boolean[] seen = new boolean[6];
        for (int i = 0; i < 10_000; i++) {
            int other = random.otherWarehouse(3, 5);
            assertThat(other).isBetween(1, 5).isNotEqualTo(3);
            seen[other] = true;
        }
        assertThat(seen[1] && seen[2] && seen[4] && seen[5]).isTrue();
        assertThat(random.otherWarehouse(1, 2)).isEqualTo(2);
        assertThat(random.otherWarehouse(2, 2)).isEqualTo(1);
        assertThatThrownBy(() -> random.otherWarehouse(1, 1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void sameSeedSameStream() {
        TpccRandom a = new TpccRandom(99);
        TpccRandom b = new TpccRandom(99);
        for (int i = 0; i < 100; i++) {
            assertThat(a.alphaString(5, 10)).isEqualTo(b.alphaString(5, 10));
        }
    }

    private void assertRangeCovered(int a, int x, int y, int draws) {
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        for (int i = 0; i < draws; i++) {
            int v = random.nuRand(a, x, y, 123);
            min = Math.min(min, v);
            max = Math.max(max, v);
        }
        assertThat(min).isEqualTo(x);
        assertThat(max).isEqualTo(y);
    }
}
