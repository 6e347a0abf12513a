package io.cleave.router.sql.ast;

/** The scope written for a system variable. */
public enum VariableScope {
    /** None written ({@code @@x}, {@code SET x = 1}): MySQL uses the session value. */
    DEFAULT,
    GLOBAL,
    SESSION,
    /** {@code LOCAL} is a synonym of {@code SESSION}. */
    LOCAL,
    PERSIST,
    PERSIST_ONLY;

    /** SESSION for DEFAULT and LOCAL, else itself. */
    public VariableScope effective() {
        return this == DEFAULT || this == LOCAL ? SESSION : this;
    }
}
