package io.cleave.bench.crossshard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.junit.jupiter.api.Test;

class CrossShardShareTest {
    private static final String METRICS = """
        # HELP cleave_proxy_queries_total Client commands by command and how they were routed
        cleave_proxy_queries_total{command="query",route="local"} 342.0
        # HELP cleave_proxy_transactions_total Transactions ended, by what they spanned and how they ended
        # TYPE cleave_proxy_transactions_total counter
        cleave_proxy_transactions_total{kind="cross_shard",outcome="commit"} 120.0
        cleave_proxy_transactions_total{kind="cross_shard",outcome="rollback"} 3.0
        cleave_proxy_transactions_total{kind="single_shard",outcome="commit"} 870.0
        cleave_proxy_transactions_total{kind="multi_shard_autocommit",outcome="commit"} 7.0
        cleave_proxy_transactions_created 1.7E9
        """;

    @Test
    void theProxysCounterIsSummedOverOutcomesAndPreferred() {
        ProxyTransactions before = new ProxyTransactions(23, 500);
        Optional<ProxyTransactions> after = ProxyTransactions.parse(METRICS);
        assertThat(after).contains(new ProxyTransactions(123, 1000));
        CrossShardShare share = CrossShardShare.of(400, 450, after.map(a -> a.minus(before)));
        assertThat(share.source()).isEqualTo(CrossShardShare.Source.PROXY_METRICS);
        assertThat(share.share()).isEqualTo(0.2);
        assertThat(share.describe()).contains("cleave_proxy_transactions_total");
    }

    @Test
    void withoutTheCounterXaBranchesOverCompletedTransactionsStandIn() {
        assertThat(ProxyTransactions.parse("cleave_proxy_queries_total{command=\"query\",route=\"local\"} 3.0\n")).isEmpty();
        CrossShardShare share = CrossShardShare.of(160, 1000, Optional.empty());
        assertThat(share.source()).isEqualTo(CrossShardShare.Source.XA_BRANCHES);
        assertThat(share.share()).isEqualTo(0.16);
        assertThat(share.describe()).contains("Com_xa_start", "counts twice");
    }

    @Test
    void aCounterThatSawNothingIsNotUsedAndNoTransactionsGiveNoShare() {
        CrossShardShare share = CrossShardShare.of(5, 50, Optional.of(new ProxyTransactions(0, 0)));
        assertThat(share.source()).isEqualTo(CrossShardShare.Source.XA_BRANCHES);
        assertThat(CrossShardShare.of(0, 0, Optional.empty()).share()).isNaN();
    }
}
