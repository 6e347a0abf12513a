package io.cleave.router.plan;

import io.cleave.router.sql.lex.SqlMode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Pins and assigned variables are found once per statement shape, in the cached plan; the names a
 * pin takes are read per execution, so statements sharing a plan each get their own.
 */
class PinSpecTest {

    private final Router router = new Router(TestTopologies.fourShards());

    private Analysis analyze(String sql) {
        return router.analyze(sql.getBytes(StandardCharsets.UTF_8), SqlMode.DEFAULT, new Analysis());
    }

    private PinNames names(String sql) {
        Analysis a = analyze(sql);
        Plan.Route route = (Plan.Route) a.plan();
        return route.effects().pin().names(a.tokens(), new LiteralParameters().bind(a, StandardCharsets.UTF_8));
    }

    @Test
    void temporaryTablesCreatedAndDropped() {
        PinNames created = names("CREATE TEMPORARY TABLE IF NOT EXISTS `scratch` (x INT)");
        assertThat(created.pin()).isEqualTo(Pin.TEMPORARY_TABLE);
        assertThat(created.names()).containsExactly("scratch");
        assertThat(created.complete()).isTrue();
        assertThat(names("create temporary table app.t2 like app.t1").names()).containsExactly("app.t2");
        PinNames dropped = names("DROP TEMPORARY TABLE IF EXISTS scratch, `we``ird`");
        assertThat(dropped.released()).containsExactly("scratch", "we`ird");
        assertThat(dropped.names()).isEmpty();
    }

    @Test
    void namedLocksAreTheValuesOfEachExecution() {
        PinNames taken = names("SELECT GET_LOCK('Job', 10), get_lock(\"other\", 0)");
        assertThat(taken.names()).containsExactly("job", "other");
        assertThat(taken.complete()).isTrue();
        Analysis again = analyze("SELECT GET_LOCK('second', 10), get_lock(\"third\", 0)");
        assertThat(again.cached()).as("same shape, same plan").isTrue();
        Plan.Route route = (Plan.Route) again.plan();
        assertThat(route.effects().pin().names(again.tokens(), new LiteralParameters().bind(again,
                StandardCharsets.UTF_8)).names()).containsExactly("second", "third");
        PinNames released = names("DO RELEASE_LOCK('job')");
        assertThat(released.released()).containsExactly("job");
        assertThat(released.releaseAll()).isFalse();
        assertThat(names("SELECT RELEASE_ALL_LOCKS()").releaseAll()).isTrue();
        assertThat(names("SELECT GET_LOCK(CONCAT('a', 'b'), 1)").complete())
                .as("a lock name the proxy cannot read").isFalse();
    }

    @Test
    void sqlPreparedStatements() {
        assertThat(names("PREPARE Stmt1 FROM 'SELECT 1'").names()).containsExactly("stmt1");
        assertThat(names("DEALLOCATE PREPARE stmt1").released()).containsExactly("stmt1");
        assertThat(names("DROP PREPARE `stmt1`").released()).containsExactly("stmt1");
    }

    @Test
    void assignedVariablesAreInThePlan() {
        Plan.Route route = (Plan.Route) analyze("SELECT @n := c FROM sbtest1 WHERE id = 7").plan();
        assertThat(route.effects().assignedVariables()).containsExactly("n");
        assertThat(((Plan.Route) analyze("SELECT c FROM sbtest1 WHERE id = 7").plan()).effects().assignedVariables())
                .isEmpty();
    }

    @Test
    void severalStatementsAreWrappedWithWhereTheSecondStarts() {
        Plan plan = analyze("SELECT 1; SELECT @a := 2").plan();
        assertThat(plan).isInstanceOf(Plan.MultiStatement.class);
        Plan.MultiStatement multi = (Plan.MultiStatement) plan;
        assertThat(multi.secondStatement()).isEqualTo(3);
        assertThat(((Plan.Route) multi.plan()).effects().assignedVariables()).containsExactly("a");
        assertThat(analyze("SELECT 1;").plan()).isInstanceOf(Plan.Route.class);
    }
}
