package io.cleave.proxy.session;

import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * What to send a backend connection so that it carries a session's settings: a COM_INIT_DB for
 * the schema and one SET statement for everything else. Variables the connection still carries
 * from an earlier session but this one never set go back to their defaults.
 */
public record SessionSync(String initDb, String setStatement) {

    public static final SessionSync NONE = new SessionSync(null, null);

    public boolean isNeeded() {
        return initDb != null || setStatement != null;
    }

    public static SessionSync between(SessionSettings applied, SessionSettings target) {
        if (applied == target || applied.equals(target)) {
            return NONE;
        }
        // A connection cannot leave its schema by USE: a session without one gets a connection
        // logged in afresh before this sync (see the proxy's SessionSyncStep).
        String initDb = target.schema() != null && !target.schema().equals(applied.schema()) ? target.schema() : null;
        StringBuilder set = new StringBuilder();
        // SET NAMES sets the character set variables itself: one the connection carries explicitly
        // but the target does not goes back to what NAMES gives it, not to its global DEFAULT.
        boolean names = target.charset() != null && (!Objects.equals(applied.charset(), target.charset())
                || dropsCharsetVariable(applied, target));
        if (names) {
            append(set, target.charset().setNamesClause());
        }
        if (applied.autocommit() != target.autocommit()) {
            append(set, "autocommit=" + (target.autocommit() ? 1 : 0));
        }
        diff(set, applied.systemVariables(), target.systemVariables(), "@@session.", "DEFAULT",
                names ? CHARSET_VARIABLES : Set.of());
        diff(set, applied.userVariables(), target.userVariables(), "@", "NULL", Set.of());
        return new SessionSync(initDb, set.length() == 0 ? null : "SET " + set);
    }

    /** The variables SET NAMES sets. */
    private static final Set<String> CHARSET_VARIABLES = Set.of("character_set_client", "character_set_connection",
            "character_set_results", "collation_connection");

    private static boolean dropsCharsetVariable(SessionSettings applied, SessionSettings target) {
        for (String name : CHARSET_VARIABLES) {
            if (applied.systemVariables().containsKey(name) && !target.systemVariables().containsKey(name)) {
                return true;
            }
        }
        return false;
    }

    /** SETs what differs; what {@code target} lacks goes back to {@code reset}, unless {@code setAlready}. */
    private static void diff(StringBuilder set, Map<String, String> applied, Map<String, String> target,
                             String prefix, String reset, Set<String> setAlready) {
        for (Map.Entry<String, String> e : target.entrySet()) {
            if (!e.getValue().equals(applied.get(e.getKey()))) {
                append(set, prefix + quoted(e.getKey()) + "=" + e.getValue());
            }
        }
        for (String name : applied.keySet()) {
            if (!target.containsKey(name) && !setAlready.contains(name)) {
                append(set, prefix + quoted(name) + "=" + reset);
            }
        }
    }

    /** A variable name as SET takes it: quoted when it holds more than letters, digits, '_', '$' and '.'. */
    private static String quoted(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(Character.isLetterOrDigit(c) || c == '_' || c == '$' || c == '.')) {
                return "`" + name.replace("`", "``") + "`";
            }
        }
        return name;
    }

    private static void append(StringBuilder set, String clause) {
        if (set.length() > 0) {
            set.append(", ");
        }
        set.append(clause);
    }
}
