package io.cleave.bench.tpcc.run;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransactionRollbackException;
import org.junit.jupiter.api.Test;

class SqlErrorsTest {

    @Test
    void deadlocksLockTimeoutsAndSerializationFailuresAreRetried() {
        assertThat(SqlErrors.classify(new SQLTransactionRollbackException("deadlock", "40001", 1213)))
            .isEqualTo(SqlErrors.Kind.RETRYABLE);
        assertThat(SqlErrors.classify(new SQLException("lock wait timeout", "HY000", 1205)))
            .isEqualTo(SqlErrors.Kind.RETRYABLE);
        assertThat(SqlErrors.classify(new SQLException("serialization failure", "40001", 0)))
            .isEqualTo(SqlErrors.Kind.RETRYABLE);
        assertThat(SqlErrors.classify(new SQLException("XA branch rolled back: deadlock", "XA102", 1614)))
            .isEqualTo(SqlErrors.Kind.RETRYABLE);
    }

    @Test
    void lostConnectionsAreToldApart() {
        assertThat(SqlErrors.classify(new SQLNonTransientConnectionException("gone", "08S01", 0)))
            .isEqualTo(SqlErrors.Kind.CONNECTION_LOST);
        assertThat(SqlErrors.classify(new SQLException("link failure", "08003", 0)))
            .isEqualTo(SqlErrors.Kind.CONNECTION_LOST);
    }

    @Test
    void otherErrorsAreCountedByCode() {
        SQLException duplicate = new SQLException("Duplicate entry", "23000", 1062);
        assertThat(SqlErrors.classify(duplicate)).isEqualTo(SqlErrors.Kind.OTHER);
        assertThat(SqlErrors.code(duplicate)).isEqualTo("1062");
        assertThat(SqlErrors.code(new SQLException("no row", "02000", 0))).isEqualTo("02000");
        assertThat(SqlErrors.code(new SQLException("?"))).isEqualTo("unknown");
    }
}
