package io.cleave.proxy.auth;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

import static org.assertj.core.api.Assertions.assertThat;

class ScramblesTest {

    /** MariaDB's SELECT PASSWORD('sekret'). */
    private static final String SEKRET_NATIVE = "AF9E01EA8519CE58E3739F4034EFD3D6B4CA6324";

    @Test
    void doubleSha1MatchesServerPasswordFunction() {
        byte[] hash = Scrambles.doubleSha1("sekret".getBytes(StandardCharsets.UTF_8));
        assertThat(HexFormat.of().withUpperCase().formatHex(hash)).isEqualTo(SEKRET_NATIVE);
    }

    @Test
    void verifiesTokenCapturedFromLibmariadb() {
        // Scramble of a MariaDB handshake and the token the mariadb client sent for password 'sekret'.
        byte[] scramble = "eyRkG`0h>:IAJ0Q'kgCY".getBytes(StandardCharsets.US_ASCII);
        byte[] token = HexFormat.of().parseHex("2df325932eebfc2d89ec29c40b59319e1bc8f56e");
        byte[] stored = HexFormat.of().parseHex(SEKRET_NATIVE);
        assertThat(Scrambles.verifyNative(token, scramble, stored)).isTrue();
        assertThat(Scrambles.nativeToken("sekret".getBytes(StandardCharsets.UTF_8), scramble)).isEqualTo(token);
        token[0] ^= 1;
        assertThat(Scrambles.verifyNative(token, scramble, stored)).isFalse();
    }

    @Test
    void sha2FastPathVerifiesAgainstCachedHash() {
        byte[] scramble = Scrambles.newScramble();
        byte[] password = "pässwörd".getBytes(StandardCharsets.UTF_8);
        byte[] token = Scrambles.sha2Token(password, scramble);
        assertThat(token).hasSize(32);
        assertThat(Scrambles.verifySha2(token, scramble, Scrambles.doubleSha256(password))).isTrue();
        assertThat(Scrambles.verifySha2(token, Scrambles.newScramble(), Scrambles.doubleSha256(password))).isFalse();
        assertThat(Scrambles.verifySha2(token, scramble, Scrambles.doubleSha256("other".getBytes()))).isFalse();
    }

    @Test
    void emptyPasswordSendsEmptyToken() {
        assertThat(Scrambles.nativeToken(new byte[0], Scrambles.newScramble())).isEmpty();
        assertThat(Scrambles.sha2Token(new byte[0], Scrambles.newScramble())).isEmpty();
    }

    @Test
    void scrambleIsPrintableWithoutNul() {
        for (int i = 0; i < 100; i++) {
            for (byte b : Scrambles.newScramble()) {
                assertThat(b).isBetween((byte) 0x21, (byte) 0x7d);
            }
        }
    }

    @Test
    void aNativeTokenGivesSha1OfThePasswordWhichAnswersOtherScrambles() {
        byte[] password = "secret".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        byte[] first = Scrambles.newScramble();
        byte[] stored = Scrambles.doubleSha1(password);
        byte[] stage1 = Scrambles.nativeStage1(Scrambles.nativeToken(password, first), first, stored);
        assertThat(stage1).isEqualTo(Scrambles.sha1(password));
        byte[] second = Scrambles.newScramble();
        assertThat(Scrambles.nativeTokenFromStage1(stage1, second)).isEqualTo(Scrambles.nativeToken(password, second));
        assertThat(Scrambles.nativeStage1(Scrambles.nativeToken("wrong".getBytes(), first), first, stored)).isNull();
    }
}
