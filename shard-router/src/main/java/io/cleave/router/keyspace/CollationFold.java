package io.cleave.router.keyspace;

import java.text.Normalizer;
import java.util.Locale;
import java.util.Map;

/**
 * Folds a string key so that values equal under the usual case- and accent-insensitive collations
 * (utf8mb4_general_ci, utf8mb4_unicode_ci, utf8mb4_uca1400_ai_ci / utf8mb4_0900_ai_ci; PAD SPACE,
 * so trailing spaces do not count) fold to the same text. Equal keys must land on one shard, and
 * folding more than a collation does only co-locates more keys, so the fold is coarser than all
 * of them: compatibility forms (full-width letters, ligatures) and accents go, letters the UCA
 * collations equate to plain ones become those (Ł is l, Æ is ae, Ø is o), ignorable characters
 * go, and a run of s is one s (general_ci makes ß equal to s, the UCA collations to ss).
 */
final class CollationFold {

    /** Letters without a decomposition that a collation equates with plain letters. */
    private static final Map<Character, String> LETTERS = Map.of(
            '\u00df', "ss", // ß
            '\u00e6', "ae", // æ
            '\u0153', "oe", // œ
            '\u00f8', "o", // ø
            '\u0142', "l", // ł
            '\u0111', "d", // đ
            '\u00f0', "d", // ð
            '\u0127', "h", // ħ
            '\u0131', "i"); // ı (dotless i, equal to i under general_ci)

    private CollationFold() {
    }

    static String fold(String value) {
        int end = value.length();
        while (end > 0 && value.charAt(end - 1) == ' ') {
            end--;
        }
        String trimmed = value.substring(0, end);
        boolean ascii = true;
        for (int i = 0; i < trimmed.length() && ascii; i++) {
            ascii = trimmed.charAt(i) < 0x80;
        }
        String folded = ascii ? trimmed.toLowerCase(Locale.ROOT) : foldUnicode(trimmed);
        return folded.contains("ss") ? oneS(folded) : folded;
    }

    private static String foldUnicode(String s) {
        String decomposed = Normalizer.normalize(s, Normalizer.Form.NFKD);
        StringBuilder out = new StringBuilder(decomposed.length());
        for (int i = 0; i < decomposed.length(); i++) {
            char c = decomposed.charAt(i);
            int type = Character.getType(c);
            if (type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK
                    || type == Character.COMBINING_SPACING_MARK || type == Character.FORMAT
                    || c == '\u00b7') { // the middle dot of ŀ
                continue;
            }
            char lower = Character.toLowerCase(c);
            String letter = LETTERS.get(lower);
            if (letter != null) {
                out.append(letter);
            } else {
                out.append(lower);
            }
        }
        return out.toString().toLowerCase(Locale.ROOT);
    }

    private static String oneS(String s) {
        StringBuilder out = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c != 's' || out.length() == 0 || out.charAt(out.length() - 1) != 's') {
                out.append(c);
            }
        }
        return out.toString();
    }
}
