package io.cleave.proxy.session;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The client's Java character set, resolved once per settings: it must still follow every way the client sets it. */
class SessionSettingsTest {

    private static final Charset UTF8 = new Charset("utf8mb4", "utf8mb4_general_ci");

    @Test
    void theHandshakeCharsetReadsTheClientsText() {
        assertThat(SessionSettings.initial(null, UTF8).clientJavaCharset()).isEqualTo(StandardCharsets.UTF_8);
        assertThat(SessionSettings.initial(null, new Charset("greek", null)).clientJavaCharset().name())
                .isEqualTo("ISO-8859-7");
    }

    @Test
    void setNamesAndCharacterSetClientChangeIt() {
        SessionSettings s = SessionSettings.initial("shop", UTF8);
        // MySQL's latin1 is cp1252: 0x80 is the euro sign.
        assertThat(s.withCharset(new Charset("latin1", null)).clientJavaCharset().name()).isEqualTo("windows-1252");
        SessionSettings set = s.withSystemVariable("character_set_client", "'cp1251'");
        assertThat(set.clientJavaCharset().name()).isEqualTo("windows-1251");
        // A later SET NAMES replaces the explicit variable, and with it the decoder.
        assertThat(set.withCharset(UTF8).clientJavaCharset()).isEqualTo(StandardCharsets.UTF_8);
    }

    @Test
    void aCharsetWithoutJavaDecoderHasNone() {
        assertThat(SessionSettings.initial(null, UTF8).withSystemVariable("character_set_client", "'filename'")
                .clientJavaCharset()).isNull();
    }

    @Test
    void noCharsetAtAllReadsAsUtf8() {
        assertThat(SessionSettings.initial(null, null).clientJavaCharset()).isEqualTo(StandardCharsets.UTF_8);
    }
}
