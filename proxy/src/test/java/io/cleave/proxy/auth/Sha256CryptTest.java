package io.cleave.proxy.auth;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** Expected values come from glibc's crypt(3) with "$5$" salts (Python's crypt module on Debian 12). */
class Sha256CryptTest {

    private static String crypt(String key, String salt, int rounds) {
        return Sha256Crypt.encode(key.getBytes(StandardCharsets.UTF_8), salt.getBytes(StandardCharsets.US_ASCII), rounds);
    }

    @Test
    void matchesGlibc() {
        assertThat(crypt("Hello world!", "saltstring", 5000)).isEqualTo("5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5");
        assertThat(crypt("Hello world!", "toolongsaltstrin", 5000)).isEqualTo("0vuwUia3Nx9V/DqToMS8YLcfXpEXmSaC8wgguLIbus2");
        assertThat(crypt("secret", "abcdefghijklmnop", 5000)).isEqualTo("i7zHaTeYqXlesRXJ8dXj6o.MEFQdzfIJpJpcWAtszs6");
        assertThat(crypt("x".repeat(70), "abcdefghijklmnop", 5000)).isEqualTo("9Hb3FAWHMjTRmtGxp5A6xgyNw0NwnVFXs5ShXabRso2");
    }

    @Test
    void mysqlFormatRoundTrips() {
        String stored = Sha256Crypt.mysqlHash("apppw".getBytes(StandardCharsets.UTF_8));
        assertThat(stored).startsWith("$A$005$").hasSize(7 + 20 + 43);
        assertThat(Sha256Crypt.isMysqlHash(stored)).isTrue();
        assertThat(Sha256Crypt.verifyMysqlHash("apppw".getBytes(StandardCharsets.UTF_8), stored)).isTrue();
        assertThat(Sha256Crypt.verifyMysqlHash("apppx".getBytes(StandardCharsets.UTF_8), stored)).isFalse();
        assertThat(Sha256Crypt.verifyMysqlHash("apppw".getBytes(StandardCharsets.UTF_8), "*ABC")).isFalse();
    }

    /** The test vectors published with the SHA-crypt specification (glibc's $5$). */
    @Test
    void sha256CryptMatchesThePublishedVectors() {
        assertThat(Sha256Crypt.glibcCrypt(utf8("Hello world!"), "$5$saltstring"))
                .isEqualTo("$5$saltstring$5B8vYYiY.CVt1RlTTf8KbXBH3hsxY/GNooZaBBGWEc5");
        assertThat(Sha256Crypt.glibcCrypt(utf8("Hello world!"), "$5$rounds=10000$saltstringsaltstring"))
                .isEqualTo("$5$rounds=10000$saltstringsaltst$3xv.VbSHBb41AL9AvLeujZkZRBAwqFMz2.opqey6IcA");
        assertThat(Sha256Crypt.glibcCrypt(utf8("This is just a test"), "$5$rounds=5000$toolongsaltstring"))
                .isEqualTo("$5$rounds=5000$toolongsaltstrin$Un/5jzAHMgOGZ5.mWJpuVolil07guHPvOW8mGRcvxa5");
        assertThat(Sha256Crypt.glibcCrypt(utf8("a very much longer text to encrypt.  This one even stretches over morethan one line."),
                "$5$rounds=1400$anotherlongsaltstring"))
                .isEqualTo("$5$rounds=1400$anotherlongsalts$Rx.j8H.h8HjEDGomFU8bDkXm3XIUnzyxf12oP84Bnq1");
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
