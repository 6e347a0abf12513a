package io.cleave.manager.move;

/**
 * Where a move stands. Before {@link #CUTTING_OVER} succeeds the source owns the keys; from
 * {@link #CLEANING_UP} on the target does.
 */
public enum MovePhase {
    PLANNED, COPYING, CATCHING_UP, VERIFYING, CUTTING_OVER, CLEANING_UP, DONE,
    /** Cancelled or failed before the cutover: the target's copy is being deleted. */
    UNDOING, CANCELLED, FAILED;

    public boolean terminal() {
        return this == DONE || this == CANCELLED || this == FAILED;
    }

    /** Whether the map already names the target for the moving keys. */
    public boolean switched() {
        return this == CLEANING_UP || this == DONE;
    }
}
