package io.cleave.router.plan;

import io.cleave.router.sql.lex.SqlLexer;
import io.cleave.router.sql.lex.TokenBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class AssignedVariablesTest {

    private static List<String> in(String sql) {
        TokenBuffer tokens = new TokenBuffer();
        new SqlLexer().lex(sql.getBytes(StandardCharsets.UTF_8), tokens);
        return AssignedVariables.in(tokens);
    }

    @Test
    void assignmentsAndSelectInto() {
        assertThat(in("SELECT @n := @n + 1, @m := 2 FROM t")).containsExactly("n", "m");
        assertThat(in("SELECT a, b INTO @x, @`y y` FROM t WHERE id = 1")).containsExactly("x", "y y");
        assertThat(in("SELECT a FROM t WHERE id = 1 INTO @'z'")).containsExactly("z");
    }

    @Test
    void readsAreNotAssignments() {
        assertThat(in("SELECT @n, @m + 1 FROM t WHERE x = @n")).isEmpty();
        assertThat(in("INSERT INTO t VALUES (@n)")).isEmpty();
        assertThat(in("SELECT c FROM t WHERE id = 1")).isEmpty();
    }
}
