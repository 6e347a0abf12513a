package io.cleave.router.plan;

import io.cleave.router.keyspace.HashShardFunction;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RouterRetargetTest {

    private final Map<String, Keyspace> keyspaces = Map.of("h", new Keyspace("h", new HashShardFunction(16, KeyType.INTEGER)));
    private final Topology before = new Topology(2, keyspaces, Map.of(), 0);
    private final Topology after = new Topology(2, keyspaces, Map.of("t", new TableRule.Sharded("t", "h", "id")), 0);

    @Test
    void aNewTopologyStartsANewGenerationWhosePlansFollowIt() {
        Router router = new Router(before);
        Analysis old = analyze(router, "SELECT * FROM t WHERE id = 5");
        assertThat(old.plan()).isInstanceOfSatisfying(Plan.Route.class, r -> assertThat(r.target()).isEqualTo(new Target.Shard(0)));
        router.retarget(after);
        assertThat(router.generation()).isGreaterThan(old.generation());
        Analysis fresh = analyze(router, "SELECT * FROM t WHERE id = 5");
        assertThat(fresh.cached()).as("the old generation's plans are not reused").isFalse();
        assertThat(fresh.generation()).isEqualTo(router.generation());
        assertThat(fresh.plan()).isInstanceOfSatisfying(Plan.Route.class, r -> assertThat(r.target()).isInstanceOf(Target.Keyed.class));
    }

    @Test
    void theSameTopologyAgainKeepsTheGenerationAndItsPlans() {
        Router router = new Router(before);
        analyze(router, "SELECT * FROM t WHERE id = 5");
        long generation = router.generation();
        router.retarget(new Topology(2, keyspaces, Map.of(), 0));
        assertThat(router.generation()).isEqualTo(generation);
        assertThat(analyze(router, "SELECT * FROM t WHERE id = 6").cached()).isTrue();
    }

    private static Analysis analyze(Router router, String sql) {
        return router.analyze(sql.getBytes(StandardCharsets.UTF_8), SqlMode.DEFAULT, new Analysis());
    }
}
