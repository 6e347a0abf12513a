package io.cleave.proxy.deadlock;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StatementTextTest {

    @Test
    void literalsAreNeverShown() {
        assertThat(StatementText.sanitize("UPDATE bank.accounts SET secret = 'hunter2', balance = balance - 30.5 WHERE id = 42"))
                .isEqualTo("UPDATE bank.accounts SET secret = ?, balance = balance - ? WHERE id = ?")
                .doesNotContain("hunter2").doesNotContain("42");
        assertThat(StatementText.sanitize("SELECT * FROM t WHERE x IN (X'ff', 0b101, \"double\")"))
                .doesNotContain("ff").doesNotContain("101").doesNotContain("double");
    }

    @Test
    void controlCharactersCannotForgeLogLines() {
        String shown = StatementText.sanitize("UPDATE t\nSET v = 1\r\n-- injected\n WHERE `a\nb` = 2");
        assertThat(shown).doesNotContain("\n").doesNotContain("\r");
    }

    @Test
    void longStatementsAreCut() {
        String shown = StatementText.sanitize("SELECT " + "col, ".repeat(200) + "x FROM t");
        assertThat(shown).hasSize(StatementText.MAX_LENGTH + 3).endsWith("...");
    }

    @Test
    void nothingRunningIsSaidSo() {
        assertThat(StatementText.sanitize(null)).isEqualTo("(no statement running)");
        assertThat(StatementText.sanitize("  ")).isEqualTo("(no statement running)");
    }
}
