package io.cleave.proxy.frontend;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LogSafeTest {

    @Test
    void plainTextIsKept() {
        assertThat(LogSafe.text("app_user")).isEqualTo("app_user");
        assertThat(LogSafe.text("ünïcødé 用户")).isEqualTo("ünïcødé 用户");
        assertThat(LogSafe.text(null)).isEqualTo("null");
    }

    @Test
    void lineBreaksAndControlBytesCannotForgeALogLine() {
        String forged = "x' from 1.2.3.4\n2024-01-01T00:00:00Z INFO admin logged in\r\u001b[2J\u0000\u0085\u2028";
        String safe = LogSafe.text(forged);
        assertThat(safe).doesNotContain("\n", "\r", "\u001b", "\u0000", "\u0085", "\u2028");
        assertThat(safe).isEqualTo("x' from 1.2.3.4\\n2024-01-01T00:00:00Z INFO admin logged in\\r\\x1b[2J\\x00\\x85\\u2028");
    }

    @Test
    void aBackslashIsEscapedSoEscapesStayUnambiguous() {
        assertThat(LogSafe.text("a\\nb")).isEqualTo("a\\\\nb");
    }

    @Test
    void longTextIsCut() {
        String safe = LogSafe.text("u".repeat(10_000));
        assertThat(safe).startsWith("u".repeat(LogSafe.MAX_CHARS)).endsWith("...(10000 chars)");
        assertThat(safe.length()).isLessThan(LogSafe.MAX_CHARS + 20);
    }
}
