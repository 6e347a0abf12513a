package io.cleave.proxy.accounts;

import io.cleave.proxy.accounts.AccountStatement.Kind;
import io.cleave.proxy.accounts.AccountStatement.Name;
import io.cleave.router.sql.lex.SqlLexer;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.sql.lex.TokenBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What account statements name, in every way a name can be written. */
class AccountStatementTest {

    private static AccountStatement read(String sql) {
        TokenBuffer tokens = new TokenBuffer();
        byte[] bytes = sql.getBytes(StandardCharsets.UTF_8);
        new SqlLexer(SqlMode.DEFAULT).lex(bytes, 0, bytes.length, tokens);
        return AccountStatement.of(tokens);
    }

    @Test
    void createUserNamesEveryAccountAndKeepsClearPasswords() {
        AccountStatement s = read("CREATE USER IF NOT EXISTS 'app'@'%' IDENTIFIED BY 'se''cret', "
                + "`rep`@`10.0.0.%` IDENTIFIED VIA mysql_native_password USING PASSWORD('x'), ops@localhost");
        assertThat(s.kind()).isEqualTo(Kind.CREATE_USER);
        assertThat(s.named()).containsExactly(new Name("app", "%"), new Name("rep", "10.0.0.%"), new Name("ops", "localhost"));
        assertThat(s.passwords()).isEqualTo(Map.of(new Name("app", "%"), "se'cret"));
    }

    @Test
    void grantsAndRevokesNameTheirGrantees() {
        assertThat(read("GRANT SELECT, INSERT (a, b) ON shop.t TO 'app'@'%', reader WITH GRANT OPTION").named())
                .containsExactly(new Name("app", "%"), new Name("reader", null));
        assertThat(read("GRANT r1, r2 TO CURRENT_USER()").named()).containsExactly(Name.CURRENT_USER);
        AccountStatement revoke = read("REVOKE ALL PRIVILEGES, GRANT OPTION FROM 'app' @ 'h'");
        assertThat(revoke.kind()).isEqualTo(Kind.REVOKE);
        assertThat(revoke.named()).containsExactly(new Name("app", "h"));
    }

    @Test
    void renamesDropsAndRoles() {
        assertThat(read("RENAME USER 'a'@'%' TO 'b'@'%', c TO d").named())
                .containsExactly(new Name("a", "%"), new Name("b", "%"), new Name("c", null), new Name("d", null));
        AccountStatement dropRole = read("DROP ROLE IF EXISTS r1, r2");
        assertThat(dropRole.kind()).isEqualTo(Kind.DROP_ROLE);
        assertThat(dropRole.droppedRoles()).containsExactly("r1", "r2");
        assertThat(read("CREATE ROLE r WITH ADMIN 'ops'@'localhost'").named())
                .containsExactly(new Name("r", null), new Name("ops", "localhost"));
        assertThat(read("CREATE ROLE r").named()).as("the creator is granted it").containsExactly(new Name("r", null),
                Name.CURRENT_USER);
        assertThat(read("DROP USER 'a'@'%', 'b'@'%'").named()).containsExactly(new Name("a", "%"), new Name("b", "%"));
    }

    @Test
    void passwordsAndDefaultRoles() {
        AccountStatement own = read("SET PASSWORD = PASSWORD('new')");
        assertThat(own.named()).containsExactly(Name.CURRENT_USER);
        assertThat(own.passwords()).isEqualTo(Map.of(Name.CURRENT_USER, "new"));
        AccountStatement hashed = read("SET PASSWORD FOR 'app'@'%' = '*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19'");
        assertThat(hashed.named()).containsExactly(new Name("app", "%"));
        assertThat(hashed.passwords()).as("a hash is no password").isEmpty();
        assertThat(read("ALTER USER 'app'@'%' IDENTIFIED BY PASSWORD '*AB'").passwords()).isEmpty();
        assertThat(read("SET DEFAULT ROLE reader FOR 'app'@'%'").named()).containsExactly(new Name("app", "%"));
        assertThat(read("SET DEFAULT ROLE NONE").named()).containsExactly(Name.CURRENT_USER);
        assertThat(read("FLUSH PRIVILEGES").named()).isEmpty();
        assertThat(read("SET ROLE reader")).isNull();
        assertThat(read("CREATE TABLE t (a INT)")).isNull();
        assertThat(List.of(read("ALTER USER CURRENT_USER() IDENTIFIED BY 'x'").kind())).containsExactly(Kind.ALTER_USER);
    }
}
