package io.cleave.router.routine;

import java.util.List;
import java.util.Set;

/**
 * What a stored routine's body names and does, read from its tokens (a routine's statements are
 * not planned one by one: what it names is enough to know where it can run).
 *
 * @param names              every word and quoted identifier it names, lower case (table names among
 *                           them), and the words of its string literals, which it may run as SQL
 * @param writes             it changes data or structure (or runs SQL it builds, which may)
 * @param userVariables      the user variables it names: read back after a CALL, since it may set them
 * @param procedures         the procedures it CALLs, lower case, {@code schema.name} where it names the schema
 * @param functions          the words it calls as functions, lower case: the stored functions among them run too
 * @param connectionState    it leaves state on its connection (temporary tables, named locks, LOCK
 *                           TABLES, SQL prepared statements)
 * @param transactionControl it starts or ends transactions itself
 * @param readable           its body could be read (the shards show a routine's body only to accounts
 *                           allowed to see it): one that could not could do anything
 */
public record RoutineProfile(Set<String> names, boolean writes, List<String> userVariables, Set<String> procedures,
                             Set<String> functions, boolean connectionState, boolean transactionControl,
                             boolean readable) {

    /** A routine whose body the proxy may not read. */
    public static final RoutineProfile UNREADABLE = new RoutineProfile(Set.of(), true, List.of(), Set.of(), Set.of(),
            true, true, false);

    public RoutineProfile {
        names = Set.copyOf(names);
        userVariables = List.copyOf(userVariables);
        procedures = Set.copyOf(procedures);
        functions = Set.copyOf(functions);
    }
}
