package io.cleave.router.sql.ast;

import io.cleave.router.sql.lex.TokenBuffer;

/**
 * The tokens a node was parsed from: token indexes {@code [first, end)}, half-open. Plans keep
 * spans (token indexes are the same for every statement with the same digest) and turn them into
 * byte ranges of the statement at hand with {@link #byteStart} and {@link #byteEnd}.
 */
public record Span(int first, int end) {

    public Span {
        if (first < 0 || end < first) {
            throw new IllegalArgumentException("bad span [" + first + ", " + end + ")");
        }
    }

    public static Span of(int first, int end) {
        return new Span(first, end);
    }

    /** The span covering both. */
    public static Span cover(Span a, Span b) {
        return new Span(Math.min(a.first, b.first), Math.max(a.end, b.end));
    }

    /** The last token, inclusive ({@code end - 1}). */
    public int last() {
        return end - 1;
    }

    public int size() {
        return end - first;
    }

    public boolean isEmpty() {
        return end == first;
    }

    public boolean contains(int token) {
        return token >= first && token < end;
    }

    /**
     * Byte offset of the first token in {@code tokens.source()}. For an empty span, the position
     * right after the token before it (where text would be inserted).
     */
    public int byteStart(TokenBuffer tokens) {
        return isEmpty() ? insertionPoint(tokens) : tokens.start(first);
    }

    /** Byte offset just past the last token in {@code tokens.source()}; for an empty span, see {@link #byteStart}. */
    public int byteEnd(TokenBuffer tokens) {
        return isEmpty() ? insertionPoint(tokens) : tokens.end(end - 1);
    }

    private int insertionPoint(TokenBuffer tokens) {
        return first == 0 ? tokens.offset() : tokens.end(Math.min(first, tokens.size()) - 1);
    }

    /** The original text of the span (allocates). */
    public String text(TokenBuffer tokens) {
        return isEmpty() ? "" : tokens.text(first, end - 1);
    }

    @Override
    public String toString() {
        return "[" + first + "," + end + ")";
    }
}
