package io.cleave.manager.auth;

import io.cleave.proxy.auth.Sha256Crypt;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class PasswordHashesTest {

    /** MariaDB 11.4: SELECT PASSWORD('x'). */
    @Test
    void nativeHashMatchesTheServersPasswordFunction() {
        assertThat(PasswordHashes.mysqlNative("x")).isEqualTo("*B69027D44F6E5EDC07F1AEAD1477967B16F28227");
        assertThat(PasswordHashes.isNativeHash(PasswordHashes.mysqlNative("anything"))).isTrue();
    }

    /**
     * MySQL frames the same digest as $A$005$ + 20-byte salt + digest, with 5000 rounds and the
     * salt not truncated: with a 16-byte salt the digest must equal glibc's $5$rounds=5000$.
     */
    @Test
    void cachingSha2UsesTheSameDigestWithMysqlFraming() {
        String glibc = Sha256Crypt.glibcCrypt(bytes(""), "$5$rounds=5000$abcdefghijklmnop");
        assertThat(glibc).isEqualTo("$5$rounds=5000$abcdefghijklmnop$p99E2fxZB/BTl9j.a2VRY5z71zEP761isnVBuiGlzV3");
        assertThat(Sha256Crypt.encode(bytes(""), bytes("abcdefghijklmnop"), 5000))
                .isEqualTo(glibc.substring(glibc.lastIndexOf('$') + 1));

        String stored = PasswordHashes.cachingSha2("secret", "0123456789abcdefghij");
        assertThat(stored).startsWith("$A$005$0123456789abcdefghij").hasSize(70);
        assertThat(stored.substring(27)).isEqualTo(Sha256Crypt.encode(bytes("secret"), bytes("0123456789abcdefghij"), 5000));
        assertThat(PasswordHashes.isCachingSha2Hash(stored)).isTrue();
        assertThat(PasswordHashes.matchesCachingSha2("secret", stored)).isTrue();
        assertThat(PasswordHashes.matchesCachingSha2("Secret", stored)).isFalse();
    }

    @Test
    void randomSaltsDiffer() {
        String a = PasswordHashes.cachingSha2("pw");
        String b = PasswordHashes.cachingSha2("pw");
        assertThat(a).isNotEqualTo(b);
        assertThat(PasswordHashes.matchesCachingSha2("pw", a)).isTrue();
        assertThat(PasswordHashes.matchesCachingSha2("pw", b)).isTrue();
    }

    @Test
    void hashFormsAreValidated() {
        assertThat(PasswordHashes.isNativeHash("*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19")).isTrue();
        assertThat(PasswordHashes.isNativeHash("2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19")).isFalse();
        assertThat(PasswordHashes.isNativeHash("*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E1")).isFalse();
        // A salt as MySQL makes it may hold any ASCII but '$', quotes and backslashes included.
        String punctuated = PasswordHashes.cachingSha2("pw", "i`xay#fG/\\' TrbkNA82");
        assertThat(PasswordHashes.isCachingSha2Hash(punctuated)).isTrue();
        assertThat(PasswordHashes.isCachingSha2Hash(punctuated.substring(0, 69))).isFalse();
        assertThat(PasswordHashes.isCachingSha2Hash(punctuated.replace("$A$005$", "$A$000$"))).isFalse();
        assertThat(PasswordHashes.isCachingSha2Hash(punctuated.replace("$A$005$", "$5$005$"))).isFalse();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
