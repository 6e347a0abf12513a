package io.cleave.router.sql.ast;

/** One item of a select list. */
public sealed interface SelectItem extends Node {

    /** {@code expr [[AS] alias]}; alias is null when not written. */
    record Column(Span span, Expr expr, String alias) implements SelectItem {
    }

    /** {@code *} (table null) or {@code t.*} / {@code db.t.*}. */
    record Star(Span span, String schema, String table) implements SelectItem {
    }
}
