package io.cleave.router.sql.ast;

/**
 * A type in CAST/CONVERT or a column definition: its base name in upper case ({@code DECIMAL},
 * {@code SIGNED}, {@code CHAR}) and the span of the whole type. Lengths and precisions are
 * literals and so slots; read them from the span when needed.
 */
public record DataType(Span span, String name) implements Node {

    @Override
    public String toString() {
        return name;
    }
}
