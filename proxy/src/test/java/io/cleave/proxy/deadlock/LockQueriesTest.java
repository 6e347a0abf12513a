package io.cleave.proxy.deadlock;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LockQueriesTest {

    @Test
    void mariaDbReadsInformationSchemaAndKillsByQueryId() {
        LockQueries q = LockQueries.forVersion("11.4.5-MariaDB");
        assertThat(q).isEqualTo(LockQueries.MARIADB);
        assertThat(q.waits()).contains("information_schema.INNODB_LOCK_WAITS").contains("INNODB_LOCKS");
        assertThat(q.transactions()).contains("PROCESSLIST").contains("QUERY_ID");
        assertThat(q.kill(57, 1234L)).isEqualTo("KILL QUERY ID 1234");
        assertThat(q.kill(57, null)).isEqualTo("KILL QUERY 57");
        // MariaDB also reports a MySQL-compatible prefix.
        assertThat(LockQueries.forVersion("5.5.5-10.11.6-MariaDB-log")).isEqualTo(LockQueries.MARIADB);
    }

    @Test
    void mySql8ReadsPerformanceSchemaAndKillsByThread() {
        LockQueries q = LockQueries.forVersion("8.0.36");
        assertThat(q).isEqualTo(LockQueries.PERFORMANCE_SCHEMA);
        assertThat(q.waits()).contains("performance_schema.data_lock_waits").contains("performance_schema.data_locks")
                .contains("REQUESTING_ENGINE_TRANSACTION_ID").doesNotContain("INNODB_LOCK_WAITS");
        assertThat(q.transactions()).contains("information_schema.INNODB_TRX").doesNotContain("PROCESSLIST");
        assertThat(q.kill(57, 1234L)).isEqualTo("KILL QUERY 57");
        assertThat(LockQueries.forVersion("8.4.0-commercial")).isEqualTo(LockQueries.PERFORMANCE_SCHEMA);
        assertThat(LockQueries.forVersion("9.1.0")).isEqualTo(LockQueries.PERFORMANCE_SCHEMA);
    }

    @Test
    void mySqlBefore8StillHasInformationSchemaLockWaits() {
        LockQueries q = LockQueries.forVersion("5.7.44-log");
        assertThat(q).isEqualTo(LockQueries.INFORMATION_SCHEMA);
        assertThat(q.waits()).contains("information_schema.INNODB_LOCK_WAITS");
        assertThat(q.kill(57, null)).isEqualTo("KILL QUERY 57");
    }
}
