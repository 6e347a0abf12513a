package io.cleave.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import org.junit.jupiter.api.Test;

class ClientErrorsTest {

    @Test
    void errorsCountByWorkloadAndCodeAndThoseNoFaultExplainsStandOut() {
        ClientErrors errors = new ClientErrors();
        errors.add(1_000, "bank", new SQLException("Deadlock found", "40001", 1213));
        errors.add(2_000, "bank", new SQLNonTransientConnectionException("Communications link failure", "08S01"));
        errors.add(2_500, "tpcc", new SQLException("Duplicate entry '7' for key 'PRIMARY'", "23000", 1062));
        errors.add(3_000, "reader", new SQLException("Table 'chaos.warehouse' doesn't exist", "42S02", 1146));
        assertThat(errors.byCode()).containsOnly(java.util.Map.entry("bank 1213", 1L),
            java.util.Map.entry("bank SQLSTATE 08S01", 1L), java.util.Map.entry("tpcc 1062", 1L),
            java.util.Map.entry("reader 1146", 1L));
        assertThat(errors.total()).isEqualTo(4);
        assertThat(errors.neverExpected()).containsExactly(
            "at 2.5 s tpcc got 1062: Duplicate entry '7' for key 'PRIMARY'",
            "at 3.0 s reader got 1146: Table 'chaos.warehouse' doesn't exist");
    }
}
