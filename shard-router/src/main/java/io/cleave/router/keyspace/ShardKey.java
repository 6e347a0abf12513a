package io.cleave.router.keyspace;

import java.text.Normalizer;
import java.util.Locale;

/**
 * A sharding-key value after conversion to the keyspace's key type, so that every value MySQL
 * would compare as equal maps to the same key (and so to the same shard).
 */
public sealed interface ShardKey permits ShardKey.IntKey, ShardKey.StringKey {

    static ShardKey of(long value) {
        return new IntKey(value);
    }

    /** A string key compared the way a case- and accent-insensitive PAD SPACE collation does. */
    static ShardKey ofString(String value) {
        return new StringKey(foldForCollation(value));
    }

    record IntKey(long value) implements ShardKey {
        @Override
        public String toString() {
            return Long.toString(value);
        }
    }

    record StringKey(String folded) implements ShardKey {
        @Override
        public String toString() {
            return "'" + folded + "'";
        }
    }

    /**
     * Folds a string so that values equal under utf8mb4_general_ci / utf8mb4_0900_ai_ci (case and
     * accent insensitive, trailing spaces ignored) fold to the same text. Equal keys must land on
     * one shard; folding a little more than the collation does would only co-locate more keys.
     */
    static String foldForCollation(String value) {
        int end = value.length();
        while (end > 0 && value.charAt(end - 1) == ' ') {
            end--;
        }
        String trimmed = value.substring(0, end);
        boolean ascii = true;
        for (int i = 0; i < trimmed.length() && ascii; i++) {
            ascii = trimmed.charAt(i) < 0x80;
        }
        if (ascii) {
            return trimmed.toLowerCase(Locale.ROOT);
        }
        String decomposed = Normalizer.normalize(trimmed, Normalizer.Form.NFD);
        StringBuilder out = new StringBuilder(decomposed.length());
        for (int i = 0; i < decomposed.length(); i++) {
            char c = decomposed.charAt(i);
            if (Character.getType(c) != Character.NON_SPACING_MARK) {
                out.append(c);
            }
        }
        return out.toString().toLowerCase(Locale.ROOT);
    }
}
