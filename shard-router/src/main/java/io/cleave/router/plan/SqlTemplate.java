package io.cleave.router.plan;

import java.util.List;

/**
 * The text a shard receives: the client's own statement, or a rewrite assembled from pieces of it
 * (token ranges, so a plan serves every statement with the same digest) and added text.
 */
public sealed interface SqlTemplate permits SqlTemplate.Original, SqlTemplate.Pieces {

    record Original() implements SqlTemplate {
        @Override
        public String toString() {
            return "original";
        }
    }

    record Pieces(List<Piece> pieces) implements SqlTemplate {
        public Pieces {
            pieces = List.copyOf(pieces);
        }
    }

    sealed interface Piece permits Tokens, Text, LimitSum, QuotedTokens {
    }

    /** Tokens {@code [first, end)} of the statement, as written (slots rendered with this execution's values). */
    record Tokens(int first, int end) implements Piece {
        @Override
        public String toString() {
            return "t[" + first + "," + end + ")";
        }
    }

    /**
     * Tokens {@code [first, end)} as the client wrote them (spacing included), as a backquoted
     * identifier: the column name the server gives an unaliased expression, kept when the
     * expression itself is rewritten.
     */
    record QuotedTokens(int first, int end) implements Piece {
        @Override
        public String toString() {
            return "`t[" + first + "," + end + ")`";
        }
    }

    /** Text the rewrite adds. */
    record Text(String text) implements Piece {
        @Override
        public String toString() {
            return "'" + text + "'";
        }
    }

    /** The sum offset + count, for pushing {@code LIMIT offset, count} down as {@code LIMIT offset+count}. */
    record LimitSum(ValueRef offset, ValueRef count) implements Piece {
        @Override
        public String toString() {
            return "(" + offset + "+" + count + ")";
        }
    }
}
