package io.cleave.manager.coordination;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ErrantTransactionsTest {

    @Test
    void anOldPrimaryWhoseLastTransactionTheNewOneReplicatedHasNone() {
        // The new primary (server 2000) replicated up to 0-1000-2732, then wrote on at 2733.
        assertThat(ErrantTransactions.of("0-1000-2732", "0-1000-2732,0-2000-2740", "0-1000-2732")).isEmpty();
    }

    @Test
    void transactionsTheNewPrimaryNeverGotAreErrant() {
        assertThat(ErrantTransactions.of("0-1000-2735", "0-1000-2732,0-2000-2740", "0-1000-2732"))
                .containsExactly("0-1000-2735 (the new primary has up to 0-1000-2732)");
    }

    @Test
    void theReplicatedPositionCountsWhenTheBinlogHoldsNothingOfTheOldPrimary() {
        // A standby seeded at a cut (its binlog reset) that replicated nothing since.
        assertThat(ErrantTransactions.of("0-1000-500", "", "0-1000-500")).isEmpty();
    }

    @Test
    void everyDomainIsCompared() {
        assertThat(ErrantTransactions.of("0-1000-9,1-1000-4", "0-1000-9,1-1000-3", ""))
                .containsExactly("1-1000-4 (the new primary has up to 1-1000-3)");
        assertThat(ErrantTransactions.of("2-1000-1", "0-1000-9", ""))
                .containsExactly("2-1000-1 (the new primary has nothing of server 1000 in domain 2)");
    }
}
