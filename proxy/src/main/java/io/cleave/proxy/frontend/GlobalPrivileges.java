package io.cleave.proxy.frontend;

import io.cleave.proxy.merge.TextRow;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The global privileges a session holds now (its account's and its active role's), as a shard
 * shows them to the session itself (SHOW GRANTS on one of its connections): what the proxy checks
 * where it answers for the server, as SHOW PROCESSLIST (PROCESS) and KILL (CONNECTION ADMIN or
 * SUPER) of other users' connections.
 */
final class GlobalPrivileges {

    private final Set<String> privileges;

    private GlobalPrivileges(Set<String> privileges) {
        this.privileges = privileges;
    }

    /** Asks a shard for {@code session}'s grants; {@code then} gets them (none when the shard could not tell). */
    static void of(Session session, Command command, Consumer<GlobalPrivileges> then) {
        new MultiExchange(new CommandLegs(session, command), false, results -> {
            LegResult r = results.get(0);
            then.accept(r.ok() ? parse(r.rows.stream().map(row -> row.string(0)).toList()) : new GlobalPrivileges(Set.of()));
        }).leg(session.anyShard(), "SHOW GRANTS".getBytes(StandardCharsets.UTF_8)).start();
    }

    /** From SHOW GRANTS lines: the privileges granted ON *.* (ALL PRIVILEGES stands for every one). */
    static GlobalPrivileges parse(List<String> grants) {
        Set<String> out = new HashSet<>();
        for (String line : grants) {
            if (line == null) {
                continue;
            }
            String upper = line.toUpperCase(Locale.ROOT);
            int on = upper.indexOf(" ON *.* TO ");
            if (!upper.startsWith("GRANT ") || on < 0) {
                continue;
            }
            for (String p : upper.substring("GRANT ".length(), on).split(",")) {
                out.add(p.strip());
            }
        }
        return new GlobalPrivileges(out);
    }

    /** Whether it holds any of {@code names} globally (or ALL PRIVILEGES). */
    boolean hasAny(String... names) {
        if (privileges.contains("ALL PRIVILEGES") || privileges.contains("ALL")) {
            return true;
        }
        for (String n : names) {
            if (privileges.contains(n)) {
                return true;
            }
        }
        return false;
    }
}
