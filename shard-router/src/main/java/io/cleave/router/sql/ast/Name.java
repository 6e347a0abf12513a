package io.cleave.router.sql.ast;

/** An identifier as the statement wrote it, unquoted ({@code `a``b`} becomes {@code a`b}). */
public record Name(Span span, String value) implements Node {

    @Override
    public String toString() {
        return value;
    }
}
