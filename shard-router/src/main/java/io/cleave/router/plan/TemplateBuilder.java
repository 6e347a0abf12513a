package io.cleave.router.plan;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Builds a rewrite as edits of the original token sequence: ranges replaced or removed, pieces
 * inserted before a token. Everything not edited is copied as token ranges.
 */
final class TemplateBuilder {

    private record Edit(int first, int end, List<SqlTemplate.Piece> pieces, int order) {
    }

    private static final SqlTemplate.Piece SPACE = new SqlTemplate.Text(" ");

    private final List<Edit> edits = new ArrayList<>();

    /** Replaces tokens {@code [first, end)}. */
    TemplateBuilder replace(int first, int end, List<SqlTemplate.Piece> pieces) {
        edits.add(new Edit(first, end, pieces, edits.size()));
        return this;
    }

    TemplateBuilder remove(int first, int end) {
        return replace(first, end, List.of());
    }

    /** Inserts before token {@code at} (after earlier inserts at the same place). */
    TemplateBuilder insert(int at, List<SqlTemplate.Piece> pieces) {
        edits.add(new Edit(at, at, pieces, edits.size()));
        return this;
    }

    boolean isEmpty() {
        return edits.isEmpty();
    }

    SqlTemplate build(int tokenCount) {
        if (edits.isEmpty()) {
            return new SqlTemplate.Original();
        }
        List<Edit> sorted = new ArrayList<>(edits);
        sorted.sort(Comparator.comparingInt(Edit::first).thenComparingInt(e -> e.end() == e.first() ? 0 : 1)
                .thenComparingInt(Edit::order));
        List<SqlTemplate.Piece> out = new ArrayList<>();
        int pos = 0;
        for (Edit e : sorted) {
            if (e.first() < pos) {
                throw new IllegalStateException("overlapping rewrite of tokens [" + e.first() + "," + e.end() + ")");
            }
            if (e.first() > pos) {
                out.add(new SqlTemplate.Tokens(pos, e.first()));
            }
            // Token ranges carry no whitespace at their ends: keep edits apart from their neighbours.
            if (!e.pieces().isEmpty()) {
                if (!out.isEmpty()) {
                    out.add(SPACE);
                }
                out.addAll(e.pieces());
            }
            pos = e.end();
            if (pos < tokenCount) {
                out.add(SPACE);
            }
        }
        if (pos < tokenCount) {
            out.add(new SqlTemplate.Tokens(pos, tokenCount));
        }
        return new SqlTemplate.Pieces(out);
    }

    static SqlTemplate.Piece text(String s) {
        return new SqlTemplate.Text(s);
    }

    static SqlTemplate.Piece tokens(io.cleave.router.sql.ast.Span span) {
        return new SqlTemplate.Tokens(span.first(), span.end());
    }
}
