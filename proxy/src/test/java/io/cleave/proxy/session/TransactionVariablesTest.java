package io.cleave.proxy.session;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TransactionVariablesTest {

    @Test
    void mariaDbBefore11Point1KnowsOnlyTheTxNames() {
        assertThat(TransactionVariables.of("5.5.5-10.11.19-MariaDB-0+deb12u1")).isEqualTo(TransactionVariables.LEGACY);
        assertThat(TransactionVariables.of("10.6.12-MariaDB-log")).isEqualTo(TransactionVariables.LEGACY);
        assertThat(TransactionVariables.of("11.0.6-MariaDB")).isEqualTo(TransactionVariables.LEGACY);
    }

    @Test
    void mariaDb11Point1OnAndMySqlUseTheTransactionNames() {
        assertThat(TransactionVariables.of("11.1.0-MariaDB")).isEqualTo(TransactionVariables.CURRENT);
        assertThat(TransactionVariables.of("11.4.5-MariaDB")).isEqualTo(TransactionVariables.CURRENT);
        assertThat(TransactionVariables.of("8.0.36")).isEqualTo(TransactionVariables.CURRENT);
        assertThat(TransactionVariables.of("8.4.3")).isEqualTo(TransactionVariables.CURRENT);
    }

    @Test
    void eitherSpellingIsFiledUnderTheServersName() {
        TransactionVariables legacy = TransactionVariables.LEGACY;
        assertThat(legacy.canonical("transaction_isolation")).isEqualTo("tx_isolation");
        assertThat(legacy.canonical("TX_ISOLATION")).isEqualTo("tx_isolation");
        assertThat(legacy.canonical("transaction_read_only")).isEqualTo("tx_read_only");
        assertThat(TransactionVariables.CURRENT.canonical("tx_read_only")).isEqualTo("transaction_read_only");
        assertThat(TransactionVariables.CURRENT.canonical("sql_mode")).isEqualTo("sql_mode");
    }
}
