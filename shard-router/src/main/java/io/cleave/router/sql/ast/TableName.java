package io.cleave.router.sql.ast;

/** {@code [schema.]name}; {@code schema} is null when not written. */
public record TableName(Span span, String schema, String name) implements Node {

    public String qualified() {
        return schema == null ? name : schema + "." + name;
    }

    @Override
    public String toString() {
        return qualified();
    }
}
