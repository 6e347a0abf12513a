package io.cleave.router.plan;

import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.topology.Topology;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Statements the proxy runs itself (accounts, roles, KILL, filtered reads) and those it refuses
 * (SHUTDOWN, Cleave's schema) are planned so with one shard as with several: a home of one shard
 * must not send them to its shard as they are.
 */
class ProxyStatementsPlanTest {

    private static final Topology ONE_SHARD = new Topology(1, Map.of(), Map.of(), 0);

    private static Plan plan(Topology topology, String sql) {
        return new Router(topology).analyze(sql.getBytes(StandardCharsets.UTF_8), SqlMode.DEFAULT, new Analysis()).plan();
    }

    @Test
    void oneShardOrSeveralTheProxyKeepsThemToItself() {
        for (Topology t : new Topology[] {ONE_SHARD, TestTopologies.fourShards()}) {
            assertThat(local(t, "CREATE USER 'a'@'%' IDENTIFIED VIA unix_socket")).isEqualTo(LocalQuery.ACCOUNT_STATEMENT);
            assertThat(local(t, "GRANT SELECT ON shop.* TO 'a'@'%'")).isEqualTo(LocalQuery.ACCOUNT_STATEMENT);
            assertThat(local(t, "FLUSH PRIVILEGES")).isEqualTo(LocalQuery.ACCOUNT_STATEMENT);
            assertThat(local(t, "SET ROLE reader")).isEqualTo(LocalQuery.SET_ROLE);
            assertThat(local(t, "KILL 7")).isEqualTo(LocalQuery.KILL);
            assertThat(local(t, "SELECT User FROM mysql.user")).isEqualTo(LocalQuery.FILTERED_READ);
            assertThat(local(t, "SHOW GRANTS FOR 'cleave'@'localhost'")).isEqualTo(LocalQuery.FILTERED_READ);
            assertThat(plan(t, "SHUTDOWN")).isInstanceOf(Plan.Refuse.class);
            assertThat(((Plan.Refuse) plan(t, "SELECT * FROM cleave.decisions")).code()).isEqualTo(1044);
            assertThat(plan(t, "FLUSH TABLES")).isInstanceOf(Plan.Route.class);
            assertThat(plan(t, "SELECT * FROM Cleave.decisions")).as("database names are case-sensitive")
                    .isInstanceOf(Plan.Route.class);
        }
    }

    private static LocalQuery local(Topology t, String sql) {
        Plan p = plan(t, sql);
        assertThat(p).as(sql).isInstanceOf(Plan.Local.class);
        return ((Plan.Local) p).query();
    }
}
