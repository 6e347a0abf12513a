package io.cleave.router.sql.ast;

import java.util.List;

/** {@code SET item, item, ...}: variable assignments, SET NAMES, SET CHARACTER SET. */
public record SetStatement(Span span, List<Item> items) implements Statement {

    @Override
    public StatementKind kind() {
        return StatementKind.SET;
    }

    public sealed interface Item extends Node {
    }

    /**
     * {@code @user = v}, {@code @@[scope.]name = v}, {@code [GLOBAL|SESSION|...] name = v}. For a
     * user variable scope is DEFAULT. Bare words as values ({@code ON}, {@code SYSTEM}) are
     * {@link Expr.Literal}s of kind WORD; {@code DEFAULT} is kind DEFAULT.
     */
    public record Variable(Span span, boolean user, VariableScope scope, String name, Expr value) implements Item {
    }

    /** {@code NAMES charset [COLLATE collation]} or {@code NAMES DEFAULT} (charset null). */
    public record Names(Span span, String charset, String collation) implements Item {
    }

    /** {@code CHARACTER SET charset}, {@code CHARSET charset}; charset null for DEFAULT. */
    public record Charset(Span span, String charset) implements Item {
    }
}
