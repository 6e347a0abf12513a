package io.cleave.router.plan;

import io.cleave.router.sql.lex.SqlLexer;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.sql.lex.TokenBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class SessionCallsTest {

    private static TokenBuffer lex(String sql) {
        TokenBuffer tokens = new TokenBuffer();
        byte[] b = sql.getBytes(StandardCharsets.UTF_8);
        new SqlLexer(SqlMode.DEFAULT).lex(b, 0, b.length, tokens);
        return tokens;
    }

    @Test
    void findsCallsInStatementsThatEvaluateThemAsTheyRun() {
        assertThat(SessionCalls.any(lex("SELECT ROW_COUNT() + 1"), Integer.MAX_VALUE)).isTrue();
        assertThat(SessionCalls.any(lex("insert into t values (1, found_rows())"), Integer.MAX_VALUE)).isTrue();
        assertThat(SessionCalls.any(lex("SET @n = ROW_COUNT()"), Integer.MAX_VALUE)).isTrue();
        assertThat(SessionCalls.any(lex("(SELECT FOUND_ROWS()) UNION (SELECT 1)"), Integer.MAX_VALUE)).isTrue();
    }

    @Test
    void leavesNamesThatAreNoCallsAndBodiesRunLater() {
        assertThat(SessionCalls.any(lex("SELECT row_count FROM t"), Integer.MAX_VALUE)).as("a column").isFalse();
        assertThat(SessionCalls.any(lex("SELECT 'ROW_COUNT()'"), Integer.MAX_VALUE)).as("a string").isFalse();
        assertThat(SessionCalls.any(lex("SELECT db.ROW_COUNT()"), Integer.MAX_VALUE)).as("a stored function").isFalse();
        assertThat(SessionCalls.any(lex("SELECT ROW_COUNT(1)"), Integer.MAX_VALUE)).as("not the built-in").isFalse();
        assertThat(SessionCalls.any(lex("CREATE PROCEDURE p() BEGIN UPDATE t SET a = 1; SELECT ROW_COUNT() + 0; END"),
                Integer.MAX_VALUE)).as("a body runs later, on its shard").isFalse();
        assertThat(SessionCalls.any(lex("CREATE VIEW v AS SELECT FOUND_ROWS() + 1"), Integer.MAX_VALUE)).isFalse();
    }

    @Test
    void onlyTheTokensOfTheFirstStatementCount() {
        TokenBuffer tokens = lex("UPDATE t SET a = 1; SELECT ROW_COUNT() + 0");
        int second = 0;
        while (tokens.type(second) != io.cleave.router.sql.lex.TokenType.SEMICOLON) {
            second++;
        }
        assertThat(SessionCalls.any(tokens, second + 1)).isFalse();
        assertThat(SessionCalls.next(tokens, 0, tokens.size())).isGreaterThan(second);
        assertThat(SessionCalls.function(tokens, SessionCalls.next(tokens, 0, tokens.size())))
                .isEqualTo(LocalQuery.ROW_COUNT);
    }
}
