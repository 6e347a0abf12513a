package io.cleave.bench.crossshard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cleave.bench.home.HomeSpec;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class TransferTest {

    @Test
    void everyTransferTouchesKDistinctShardsWithinTheirRangesAndMovesNothingInTotal() {
        SplittableRandom random = new SplittableRandom(7);
        for (int k = 1; k <= 4; k++) {
            for (int n = 0; n < 2_000; n++) {
                Transfer t = Transfer.draw(random, k, 4, 500);
                assertThat(t.k()).isEqualTo(k);
                Set<Integer> shards = new HashSet<>();
                for (long id : t.accounts()) {
                    int shard = HomeSpec.shardOfAccount(id);
                    assertThat(id).isBetween(HomeSpec.firstAccount(shard), HomeSpec.firstAccount(shard) + 499);
                    shards.add(shard);
                }
                assertThat(shards).hasSize(k);
                assertThat(t.deltas().stream().mapToLong(Long::longValue).sum()).isZero();
                if (k > 1) {
                    assertThat(t.deltas().get(0)).isPositive();
                    assertThat(t.deltas().subList(1, k)).allSatisfy(d -> assertThat(d).isBetween(-100L, -1L));
                }
            }
        }
    }

    @Test
    void shardsAndAccountsAreSpreadRatherThanFixed() {
        SplittableRandom random = new SplittableRandom(1);
        int[] firstShard = new int[4];
        Set<Long> accounts = new HashSet<>();
        for (int n = 0; n < 4_000; n++) {
            Transfer t = Transfer.draw(random, 2, 4, 10_000);
            firstShard[HomeSpec.shardOfAccount(t.accounts().get(0))]++;
            accounts.addAll(t.accounts());
        }
        // Each shard coordinates about a quarter of the transactions; few accounts are drawn twice.
        for (int count : firstShard) {
            assertThat(count).isBetween(850, 1150);
        }
        assertThat(accounts.size()).isGreaterThan(5_500);
    }

    @Test
    void kMustFitTheShards() {
        assertThatThrownBy(() -> Transfer.draw(new SplittableRandom(1), 3, 2, 10))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("between 1 and the shard count 2");
        assertThatThrownBy(() -> Transfer.draw(new SplittableRandom(1), 0, 2, 10))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void accountRangesFollowTheShards() {
        assertThat(HomeSpec.firstAccount(0)).isEqualTo(1);
        assertThat(HomeSpec.firstAccount(3)).isEqualTo(3 * HomeSpec.ACCOUNT_RANGE + 1);
        assertThat(HomeSpec.shardOfAccount(HomeSpec.ACCOUNT_RANGE)).isZero();
        assertThat(HomeSpec.shardOfAccount(HomeSpec.ACCOUNT_RANGE + 1)).isEqualTo(1);
    }
}
