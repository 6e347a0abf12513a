package io.cleave.router.keyspace;

import java.util.Locale;
import java.util.Set;

/**
 * Collations a string key's condition may name with COLLATE and still be placed by its folded
 * value: those whose equal strings always fold alike ({@link CollationFold} folds more than each
 * of them). Binary collations of every character set (equal strings are the same characters) and
 * the Unicode character sets' general, Unicode and root UCA collations; language-specific
 * collations (German ä = ae, Danish aa = å, Swedish ü = y) and single-byte sets' case-insensitive
 * ones are not among them.
 */
public final class KeyCollations {

    private static final Set<String> UNICODE_SETS = Set.of("utf8mb4", "utf8mb3", "utf8");

    private static final Set<String> UNICODE_COLLATIONS = Set.of("general_ci", "general_nopad_ci", "general_cs",
            "unicode_ci", "unicode_nopad_ci", "unicode_520_ci", "unicode_520_nopad_ci", "0900_ai_ci", "0900_as_ci",
            "0900_as_cs", "uca1400_ai_ci", "uca1400_ai_cs", "uca1400_as_ci", "uca1400_as_cs", "uca1400_nopad_ai_ci",
            "uca1400_nopad_ai_cs", "uca1400_nopad_as_ci", "uca1400_nopad_as_cs");

    private KeyCollations() {
    }

    /** Whether strings equal under {@code collation} always have the same folded key. */
    public static boolean foldCovers(String collation) {
        String name = collation.toLowerCase(Locale.ROOT);
        int underscore = name.indexOf('_');
        if (underscore <= 0) {
            return false;
        }
        String charset = name.substring(0, underscore);
        String rest = name.substring(underscore + 1);
        if (rest.equals("bin") || rest.equals("nopad_bin") || rest.equals("0900_bin")) {
            return true;
        }
        return UNICODE_SETS.contains(charset) && UNICODE_COLLATIONS.contains(rest);
    }
}
