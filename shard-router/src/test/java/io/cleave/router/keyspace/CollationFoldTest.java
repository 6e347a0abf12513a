package io.cleave.router.keyspace;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * String keys that MariaDB 11.4 compares as equal under utf8mb4_general_ci, utf8mb4_unicode_ci or
 * utf8mb4_uca1400_ai_ci (each pair checked against the server) must fold to the same key, or an
 * equality on the key would be routed to a shard that does not hold the row.
 */
class CollationFoldTest {

    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource({
            "Straße, strasse", // UCA: ß = ss
            "Straße, strase", // general_ci: ß = s
            "Łódź, lodz", // UCA: Ł = L
            "Æther, aether", // UCA
            "Øre, ore", // UCA
            "Đorđe, dorde", // UCA
            "ðe, de", // UCA
            "cœur, coeur", // unicode_ci, UCA
            "ﬁne, fine", // ligature: unicode_ci, UCA
            "Ａbc, abc", // full-width: unicode_ci, UCA
            "ǆungla, džungla", // unicode_ci, UCA
            "ŀl, ll", // UCA
            "ħat, hat", // UCA
            "ıi, ii", // general_ci: dotless i
            "ſun, sun", // long s
            "ÉLAN, elan",
            "Zoë, ZOE",
            "Ölund, olund",
            "abc   , ABC", // PAD SPACE
            "a\u00adb, ab", // soft hyphen is ignorable
    })
    void equalUnderACollationFoldsEqual(String a, String b) {
        assertThat(CollationFold.fold(a)).isEqualTo(CollationFold.fold(b));
    }

    @ParameterizedTest(name = "{0} <> {1}")
    @CsvSource({"abc, abd", "Łódź, lodzi", "oelund, olund", "a b, ab", "1, 01"})
    void differentKeysStayApart(String a, String b) {
        assertThat(CollationFold.fold(a)).isNotEqualTo(CollationFold.fold(b));
    }
}
