package io.cleave.proxy.session;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The part of a client session that must be reproduced on whichever backend connection runs its
 * next statement: schema, character set, autocommit and the variables the client set. Immutable,
 * so a backend connection can remember which settings it carries by reference and the usual case
 * (nothing changed) costs one comparison.
 *
 * <p>Variable values are SQL literals, ready to be put in a SET statement.
 */
public final class SessionSettings {

    private final String schema;
    private final Charset charset;
    private final boolean autocommit;
    private final Map<String, String> systemVariables;
    private final Map<String, String> userVariables;
    /** The role SET ROLE made active ("NONE" for none), or null: the account's default role, as a login starts. */
    private final String role;
    private final int hash;
    /** Resolved once: every execute decodes its string parameters with it. */
    private final java.nio.charset.Charset clientJavaCharset;

    public SessionSettings(String schema, Charset charset, boolean autocommit, Map<String, String> systemVariables,
                           Map<String, String> userVariables) {
        this(schema, charset, autocommit, systemVariables, userVariables, null);
    }

    public SessionSettings(String schema, Charset charset, boolean autocommit, Map<String, String> systemVariables,
                           Map<String, String> userVariables, String role) {
        this.role = role;
        this.schema = schema;
        this.charset = charset;
        this.autocommit = autocommit;
        this.systemVariables = Collections.unmodifiableMap(new LinkedHashMap<>(systemVariables));
        this.userVariables = Collections.unmodifiableMap(new LinkedHashMap<>(userVariables));
        this.hash = Objects.hash(schema, charset, autocommit, this.systemVariables, this.userVariables, role);
        String client = clientCharset();
        this.clientJavaCharset = client == null ? java.nio.charset.StandardCharsets.UTF_8
                : io.cleave.router.sql.lex.Charsets.javaCharset(client);
    }

    public static SessionSettings initial(String schema, Charset charset) {
        return new SessionSettings(schema, charset, true, Map.of(), Map.of());
    }

    public String schema() {
        return schema;
    }

    public Charset charset() {
        return charset;
    }

    public boolean autocommit() {
        return autocommit;
    }

    public Map<String, String> systemVariables() {
        return systemVariables;
    }

    public Map<String, String> userVariables() {
        return userVariables;
    }

    /**
     * The character set the client's statements are written in: character_set_client when set
     * by itself, else the SET NAMES (or handshake) one; null when not known.
     */
    public String clientCharset() {
        String set = systemVariables.get("character_set_client");
        if (set != null) {
            return set.length() >= 2 && set.charAt(0) == '\'' ? set.substring(1, set.length() - 1) : set;
        }
        return charset == null ? null : charset.charset();
    }

    /** The Java decoder for the client's text, or null when there is none (see {@link Charset#javaCharset()}). */
    public java.nio.charset.Charset clientJavaCharset() {
        return clientJavaCharset;
    }

    /** The role SET ROLE made active ("NONE" for none), or null for the account's default role. */
    public String role() {
        return role;
    }

    public SessionSettings withRole(String activeRole) {
        return new SessionSettings(schema, charset, autocommit, systemVariables, userVariables, activeRole);
    }

    public SessionSettings withSchema(String newSchema) {
        return new SessionSettings(newSchema, charset, autocommit, systemVariables, userVariables, role);
    }

    /** SET NAMES also sets these three variables, so an earlier explicit value of them is gone. */
    public SessionSettings withCharset(Charset newCharset) {
        Map<String, String> vars = new LinkedHashMap<>(systemVariables);
        vars.remove("character_set_client");
        vars.remove("character_set_connection");
        vars.remove("character_set_results");
        vars.remove("collation_connection");
        return new SessionSettings(schema, newCharset, autocommit, vars, userVariables, role);
    }

    public SessionSettings withAutocommit(boolean on) {
        return new SessionSettings(schema, charset, on, systemVariables, userVariables, role);
    }

    /** Records a session variable's literal value; {@code null} means back to its default. */
    public SessionSettings withSystemVariable(String name, String literal) {
        Map<String, String> vars = new LinkedHashMap<>(systemVariables);
        vars.remove(name);
        if (literal != null) {
            vars.put(name, literal);
        }
        return new SessionSettings(schema, charset, autocommit, vars, userVariables, role);
    }

    public SessionSettings withUserVariable(String name, String literal) {
        Map<String, String> vars = new LinkedHashMap<>(userVariables);
        vars.put(name, literal);
        return new SessionSettings(schema, charset, autocommit, systemVariables, vars, role);
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof SessionSettings other) || other.hash != hash) {
            return false;
        }
        return autocommit == other.autocommit && Objects.equals(schema, other.schema)
                && Objects.equals(charset, other.charset) && systemVariables.equals(other.systemVariables)
                && userVariables.equals(other.userVariables) && Objects.equals(role, other.role);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return "SessionSettings{schema=" + schema + ", " + charset + ", autocommit=" + autocommit
                + ", vars=" + systemVariables + ", user=" + userVariables.keySet() + "}";
    }
}
