package io.cleave.bench.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class JdbcTargetTest {

    @Test
    void turnsOnServerPreparedStatementsUnlessTheUrlSaysOtherwise() {
        assertThat(new JdbcTarget("jdbc:mysql://h:1/tpcc", "u", "").withServerPreparedStatements().url())
            .isEqualTo("jdbc:mysql://h:1/tpcc?useServerPrepStmts=true&cachePrepStmts=true");
        assertThat(new JdbcTarget("jdbc:mysql://h:1/tpcc?useServerPrepStmts=false&x=1", "u", "")
            .withServerPreparedStatements().url())
            .isEqualTo("jdbc:mysql://h:1/tpcc?useServerPrepStmts=false&x=1&cachePrepStmts=true");
    }

    @Test
    void databaseAndServerUrls() {
        JdbcTarget target = new JdbcTarget("jdbc:mysql://127.0.0.1:3399/tpcc?sslMode=DISABLED", "root", "");
        assertThat(target.database()).isEqualTo("tpcc");
        assertThat(target.withoutDatabase().url()).isEqualTo("jdbc:mysql://127.0.0.1:3399/?sslMode=DISABLED");
        assertThat(new JdbcTarget("jdbc:mysql://h:1", "u", "").database()).isEmpty();
    }

    @Test
    void passwordsStayOutOfPrintedUrls() {
        JdbcTarget target = new JdbcTarget("jdbc:mysql://h:1/tpcc?user=a&password=secret&x=1", null, "secret");
        assertThat(target.redactedUrl()).isEqualTo("jdbc:mysql://h:1/tpcc?user=a&password=***&x=1");
        assertThat(target.toString()).doesNotContain("secret");
    }
}
