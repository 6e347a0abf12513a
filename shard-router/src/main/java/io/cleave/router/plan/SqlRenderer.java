package io.cleave.router.plan;

import io.cleave.router.sql.digest.SlotKind;
import io.cleave.router.sql.digest.StatementDigest;
import io.cleave.router.sql.lex.TokenBuffer;

import java.io.ByteArrayOutputStream;

/**
 * Produces the text a shard receives from a template: the client's bytes for token ranges
 * (spacing and literals as written; a prepared statement's {@code ?} replaced by its bound value
 * as a literal), plus what the rewrite adds.
 */
public final class SqlRenderer {

    private SqlRenderer() {
    }

    public static byte[] render(SqlTemplate template, Analysis statement, ParameterValues values) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(statement.tokens().length() + 64);
        if (template instanceof SqlTemplate.Original) {
            tokens(out, 0, statement.tokens().size(), statement, values);
            return out.toByteArray();
        }
        for (SqlTemplate.Piece piece : ((SqlTemplate.Pieces) template).pieces()) {
            append(out, piece, statement, values);
        }
        return out.toByteArray();
    }

    public static void append(ByteArrayOutputStream out, SqlTemplate.Piece piece, Analysis statement,
                              ParameterValues values) {
        if (piece instanceof SqlTemplate.Tokens t) {
            tokens(out, t.first(), t.end(), statement, values);
        } else if (piece instanceof SqlTemplate.Text text) {
            byte[] b = text.text().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            out.write(b, 0, b.length);
        } else if (piece instanceof SqlTemplate.LimitSum sum) {
            long offset = value(sum.offset(), values);
            long count = value(sum.count(), values);
            // Beyond a long is "all rows" either way: the largest LIMIT the server takes says so.
            String total = count > Long.MAX_VALUE - offset ? MAX_LIMIT : Long.toString(offset + count);
            byte[] b = total.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            out.write(b, 0, b.length);
        } else if (piece instanceof SqlTemplate.QuotedTokens q) {
            TokenBuffer tokens = statement.tokens();
            out.write('`');
            byte[] src = tokens.source();
            for (int i = tokens.start(q.first()); i < tokens.end(q.end() - 1); i++) {
                if (src[i] == '`') {
                    out.write('`');
                }
                out.write(src[i]);
            }
            out.write('`');
        }
    }

    private static final String MAX_LIMIT = "18446744073709551615";

    /** A LIMIT/OFFSET value of this execution (see {@link ParameterValues#limitValue}). */
    public static long value(ValueRef ref, ParameterValues values) {
        return ref instanceof ValueRef.Constant c ? c.value() : values.limitValue(((ValueRef.Slot) ref).slot());
    }

    /**
     * Tokens {@code [first, end)} with the text between them, placeholders replaced by their
     * values. A range that reaches the statement's first or last token takes the text before or
     * after it as well, so comments there (and the closing of a version comment) survive.
     */
    private static void tokens(ByteArrayOutputStream out, int first, int end, Analysis statement,
                               ParameterValues values) {
        if (first >= end) {
            return;
        }
        TokenBuffer tokens = statement.tokens();
        StatementDigest digest = statement.digest();
        byte[] src = tokens.source();
        int pos = first == 0 ? tokens.offset() : tokens.start(first);
        int stop = end >= tokens.size() ? tokens.offset() + tokens.length() : tokens.end(end - 1);
        for (int i = first; i < end; i++) {
            int slot = digest.slotOfToken(i);
            if (slot >= 0 && digest.slotKind(slot) == SlotKind.PLACEHOLDER) {
                out.write(src, pos, tokens.start(i) - pos);
                values.appendSql(slot, out);
                pos = tokens.end(i);
            }
        }
        out.write(src, pos, stop - pos);
    }
}
