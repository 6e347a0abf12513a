package io.cleave.proxy.frontend;

import io.cleave.router.plan.Pin;
import io.cleave.router.sql.lex.SqlLexer;
import io.cleave.router.sql.lex.TokenBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class PinNamesTest {

    private static PinNames of(Pin pin, String sql) {
        TokenBuffer tokens = new TokenBuffer();
        new SqlLexer().lex(sql.getBytes(StandardCharsets.UTF_8), tokens);
        return PinNames.of(pin, tokens);
    }

    @Test
    void temporaryTablesCreatedAndDropped() {
        PinNames created = of(Pin.TEMPORARY_TABLE, "CREATE TEMPORARY TABLE IF NOT EXISTS `scratch` (x INT)");
        assertThat(created.names()).containsExactly("scratch");
        assertThat(created.complete()).isTrue();
        assertThat(of(Pin.TEMPORARY_TABLE, "create temporary table app.t2 like app.t1").names()).containsExactly("app.t2");
        PinNames dropped = of(Pin.DROP_TEMPORARY_TABLE, "DROP TEMPORARY TABLE IF EXISTS scratch, `we``ird`");
        assertThat(dropped.released()).containsExactly("scratch", "we`ird");
        assertThat(dropped.names()).isEmpty();
    }

    @Test
    void namedLocksTakenAndReleased() {
        PinNames taken = of(Pin.NAMED_LOCK, "SELECT GET_LOCK('Job', 10), get_lock(\"other\", 0)");
        assertThat(taken.names()).containsExactly("job", "other");
        assertThat(taken.complete()).isTrue();
        PinNames released = of(Pin.RELEASE_NAMED_LOCK, "DO RELEASE_LOCK('job')");
        assertThat(released.released()).containsExactly("job");
        assertThat(released.releaseAll()).isFalse();
        assertThat(of(Pin.RELEASE_NAMED_LOCK, "SELECT RELEASE_ALL_LOCKS()").releaseAll()).isTrue();
        assertThat(of(Pin.NAMED_LOCK, "SELECT GET_LOCK(CONCAT('a', id), 1) FROM t").complete())
                .as("a lock name the proxy cannot read").isFalse();
    }

    @Test
    void sqlPreparedStatements() {
        assertThat(of(Pin.SQL_PREPARE, "PREPARE Stmt1 FROM 'SELECT 1'").names()).containsExactly("stmt1");
        assertThat(of(Pin.SQL_DEALLOCATE, "DEALLOCATE PREPARE stmt1").released()).containsExactly("stmt1");
        assertThat(of(Pin.SQL_DEALLOCATE, "DROP PREPARE `stmt1`").released()).containsExactly("stmt1");
    }
}
