package io.cleave.router.plan;

import java.util.List;

/**
 * What a routed statement needs from, or leaves on, the connection it runs on. It depends only on
 * the statement's shape, so it is worked out once, when the statement is planned.
 *
 * @param usesLastInsertId   it calls LAST_INSERT_ID(): the shard must know the session's value first
 * @param previousConnection it reads what the session's previous statement left on its connection
 *                           (SHOW WARNINGS, FOUND_ROWS()): it must run there
 * @param pin                connection-bound state it creates or releases, and where its names are
 * @param assignedVariables  user variables it assigns outside SET, read back after it (empty: none)
 * @param countsFoundRows    it says SQL_CALC_FOUND_ROWS: FOUND_ROWS() after it is read back from its
 *                           connection (it counts rows the result set does not have)
 */
public record Effects(boolean usesLastInsertId, boolean previousConnection, PinSpec pin,
                      List<String> assignedVariables, boolean countsFoundRows) {

    public static final Effects NONE = new Effects(false, false, PinSpec.NONE, List.of());

    public Effects {
        assignedVariables = List.copyOf(assignedVariables);
    }

    public Effects(boolean usesLastInsertId, boolean previousConnection, PinSpec pin, List<String> assignedVariables) {
        this(usesLastInsertId, previousConnection, pin, assignedVariables, false);
    }

    /** As a planner knows them from the statement's syntax; {@link #locate} adds what only its text tells. */
    public static Effects of(Pin pin, boolean usesLastInsertId, boolean previousConnection) {
        return new Effects(usesLastInsertId, previousConnection, PinSpec.unnamed(pin), List.of());
    }

    /**
     * These effects with the pin's names and the assigned variables found in the statement's tokens
     * (added to those the planner knew of: the user variables SET in a text of several statements).
     */
    Effects locate(io.cleave.router.sql.lex.TokenBuffer tokens, io.cleave.router.sql.digest.StatementDigest digest) {
        List<String> assigned = AssignedVariables.in(tokens);
        if (!assignedVariables.isEmpty()) {
            List<String> all = new java.util.ArrayList<>(assignedVariables);
            for (String v : assigned) {
                if (!all.contains(v)) {
                    all.add(v);
                }
            }
            assigned = all;
        }
        boolean calc = false;
        for (int i = 0; i < tokens.size() && !calc; i++) {
            calc = tokens.isKeyword(i, io.cleave.router.sql.lex.Keyword.SQL_CALC_FOUND_ROWS);
        }
        return new Effects(usesLastInsertId, previousConnection, PinSpec.locate(pin.pin(), tokens, digest), assigned, calc);
    }
}
