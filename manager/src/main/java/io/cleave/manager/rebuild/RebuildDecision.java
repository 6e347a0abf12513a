package io.cleave.manager.rebuild;

import io.cleave.manager.coordination.RejoinReport;

import java.util.Optional;

/**
 * What {@code cleave rejoin [--rebuild]} does with an old primary, from what its daemon's rejoin answered (nothing
 * when no daemon runs) and whether a rebuild of this home was cut short. A transaction the new primary lacks is never
 * put aside without {@code --rebuild}.
 */
public enum RebuildDecision {
    /** The daemon's rejoin took (its shards held nothing the new primary lacks): nothing to rebuild. */
    JOINED,
    /** Its shards hold transactions the new primary lacks, and no rebuild was asked for: refused, nothing changed. */
    REFUSED,
    /** Its shards hold transactions the new primary lacks: put the home aside and seed it as the standby. */
    REBUILD,
    /** No daemon runs, and a rebuild of this home put it aside and was cut short: seed it again. */
    RESUME,
    /** No daemon runs, and no rebuild is under way: the check needs the daemon (it runs the shards and knows the pair). */
    NEEDS_DAEMON;

    /**
     * @param rebuild   whether {@code --rebuild} was given
     * @param rejoined  what the running daemon's rejoin answered; empty when no daemon runs for the home
     * @param cutShort  whether this home is a rebuild's seed that did not finish (its old home put aside)
     */
    public static RebuildDecision of(boolean rebuild, Optional<RejoinReport> rejoined, boolean cutShort) {
        if (rejoined.isPresent()) {
            if (rejoined.get().joined()) {
                return JOINED;
            }
            return rebuild ? REBUILD : REFUSED;
        }
        return rebuild && cutShort ? RESUME : NEEDS_DAEMON;
    }
}
