package io.cleave.manager.move;

import com.github.shyiko.mysql.binlog.event.XAPrepareEventData;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/**
 * An XA transaction's id as its server knows it: the format id and the bytes of gtrid and bqual (in
 * hex, so ids compare exactly). The binlog names a transaction twice: its XA PREPARE event carries
 * the id in binary, the XA COMMIT or XA ROLLBACK that settles it later is a statement naming the id
 * as text ({@code X'636c...',X'',1} on MariaDB and MySQL, whoever sent it).
 */
record XaId(long formatId, String gtrid, String bqual) {

    private static final HexFormat HEX = HexFormat.of();

    static XaId of(XAPrepareEventData prepare) {
        byte[] data = prepare.getData();
        int g = prepare.getGtridLength();
        return new XaId(prepare.getFormatID(), HEX.formatHex(data, 0, g), HEX.formatHex(data, g, g + prepare.getBqualLength()));
    }

    /**
     * The id an {@code XA COMMIT} or {@code XA ROLLBACK} names, given the text after its verb:
     * {@code gtrid [, bqual [, formatID]]}, each string as {@code X'hex'} or quoted, and a trailing
     * {@code ONE PHASE}; null when the text is not such an id.
     */
    static XaId parse(String text) {
        Scanner s = new Scanner(text);
        byte[] gtrid = s.string();
        if (gtrid == null) {
            return null;
        }
        byte[] bqual = new byte[0];
        long format = 1;
        if (s.comma()) {
            bqual = s.string();
            if (bqual == null) {
                return null;
            }
            if (s.comma()) {
                Long f = s.number();
                if (f == null) {
                    return null;
                }
                format = f;
            }
        }
        return new XaId(format, HEX.formatHex(gtrid), HEX.formatHex(bqual));
    }

    @Override
    public String toString() {
        return "X'" + gtrid + "',X'" + bqual + "'," + formatId;
    }

    /** Reads the parts of an id one after another. */
    private static final class Scanner {
        private final String s;
        private int at;

        Scanner(String s) {
            this.s = s;
        }

        private void spaces() {
            while (at < s.length() && Character.isWhitespace(s.charAt(at))) {
                at++;
            }
        }

        boolean comma() {
            spaces();
            if (at < s.length() && s.charAt(at) == ',') {
                at++;
                return true;
            }
            return false;
        }

        /** {@code X'hex'} or {@code 'text'} ({@code ''} for a quote); null when neither comes next. */
        byte[] string() {
            spaces();
            if (at + 1 < s.length() && (s.charAt(at) == 'X' || s.charAt(at) == 'x') && s.charAt(at + 1) == '\'') {
                int end = s.indexOf('\'', at + 2);
                if (end < 0) {
                    return null;
                }
                try {
                    byte[] b = HEX.parseHex(s.substring(at + 2, end));
                    at = end + 1;
                    return b;
                } catch (IllegalArgumentException e) {
                    return null;
                }
            }
            if (at < s.length() && s.charAt(at) == '\'') {
                int i = at + 1;
                StringBuilder text = new StringBuilder();
                while (i < s.length()) {
                    char c = s.charAt(i);
                    if (c == '\'') {
                        if (i + 1 < s.length() && s.charAt(i + 1) == '\'') {
                            text.append('\'');
                            i += 2;
                            continue;
                        }
                        at = i + 1;
                        return text.toString().getBytes(StandardCharsets.UTF_8);
                    }
                    text.append(c);
                    i++;
                }
            }
            return null;
        }

        Long number() {
            spaces();
            int start = at;
            while (at < s.length() && Character.isDigit(s.charAt(at))) {
                at++;
            }
            return at == start ? null : Long.parseLong(s.substring(start, at));
        }
    }
}
