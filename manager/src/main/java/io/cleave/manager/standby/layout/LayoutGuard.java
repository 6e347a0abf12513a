package io.cleave.manager.standby.layout;

import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.standby.HostRole;
import io.cleave.manager.standby.StandbyState;
import io.cleave.router.shardmap.ShardMap;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Layout changes a standby cannot follow. Moves, rebalancing and shard-table change only the map
 * (replicated, see {@link MapReplication}) and rows (replicated); a scale up adds shards the standby's
 * daemon makes replicas of ({@link io.cleave.manager.standby.ShardFollower}), and a scale down takes away shards
 * it lets go of ({@link ReplicaRetirement}), so both need that daemon up. An import is not refused: its writes on the
 * shards and its map versions replicate, and a promotion settles one it cut short ({@link UnfinishedImport}). A
 * standby cannot attach while a scale, an import or a move is under way. (One started while a standby is being
 * seeded, before semi-sync is on, is not caught.)
 */
public final class LayoutGuard {

    private final CleaveHome home;
    private final Supplier<ShardMap> map;
    private final BooleanSupplier scaling;

    public LayoutGuard(CleaveHome home, Supplier<ShardMap> map, BooleanSupplier scaling) {
        this.home = home;
        this.map = map;
        this.scaling = scaling;
    }

    /**
     * How long the primary waits to hear from the standby's daemon (it asks every 2 s) before refusing a scale up:
     * 10 s. The end-to-end tests shorten it ({@code -Dcleave.test.standbyHeardWithinMillis}) so that proving the
     * refusal does not cost 10 s of silence.
     */
    static final Duration STANDBY_HEARD_WITHIN = Duration.ofMillis(Long.getLong("cleave.test.standbyHeardWithinMillis", 10_000));

    /**
     * Why a scale from {@code from} to {@code to} shards is refused now, or null. With a standby counted on, a
     * scale needs the standby's daemon: it makes a replica of each shard a scale up adds (which the primary waits
     * for before writing there), and lets go of its replicas of the shards a scale down takes away (which the
     * primary waits for, up to 10 s, before they stop). Refused while it has not asked for the shards within
     * {@link #STANDBY_HEARD_WITHIN} ({@code sinceStandbyContact}, null: not since this daemon started).
     */
    public String scaleRefusal(int from, int to, Duration sinceStandbyContact) {
        if (!attached()) {
            return null;
        }
        String anyway = " To scale anyway: 'cleave standby --semi-sync off' here (the standby is then no longer counted"
                + " on), scale, and seed a new standby with 'cleave standby'";
        if (sinceStandbyContact == null || sinceStandbyContact.compareTo(STANDBY_HEARD_WITHIN) > 0) {
            return "a standby is attached (semi-sync on) and its daemon has not asked for this home's shards "
                    + (sinceStandbyContact == null ? "since this daemon started" : "for " + sinceStandbyContact.toSeconds()
                    + " s") + ": it makes the replica of each shard a scale adds, which the scale waits for before"
                    + " writing there, and lets go of its replicas of the shards a scale down takes away. Start the standby's daemon ('cleave up' there) and scale again." + anyway;
        }
        return null;
    }

    /** Why a standby cannot attach now, or null. */
    public String attachRefusal() {
        ShardMap m = map.get();
        if (scaling.getAsBoolean() || m.movingTables().containsKey(ShardMap.EVERY_TABLE)) {
            return "a scale is under way: a standby follows moves but not shards that come and go; attach it once the"
                    + " scale is done ('cleave scale --status')";
        }
        if (!movesUnderWay(m).isEmpty()) {
            // The seed restores the rows the map places; a move's copies and old rows are left out, and its
            // later writes to them would stop the standby's replicas.
            return "a move is under way (the shard map has rows of moves " + movesUnderWay(m) + " on two shards): attach the"
                    + " standby once it is done ('cleave moves')";
        }
        if (!m.attached().isEmpty()) {
            return "an import is under way (the shard map routes to " + m.attached() + ", a server a standby does not"
                    + " replicate): attach the standby once the import is done ('cleave import --status')";
        }
        return null;
    }

    /**
     * Why the map is not settled, or null: it holds rows of moves on two shards or tables frozen by a move (one
     * under way, or one a promotion's clean-up has not settled yet). A switchover waits for that: the old primary's
     * proxy goes on forwarding by the map it had, and must not keep ghosts the new primary later clears.
     */
    public String movesInMap() {
        java.util.Set<Long> ids = movesUnderWay(map.get());
        return ids.isEmpty() ? null : "the shard map holds rows or tables of moves " + ids + " not settled yet ('cleave"
                + " moves')";
    }

    /** The moves whose rows {@code m} places on two shards (ghosts) or whose tables it freezes; empty when none. */
    static java.util.Set<Long> movesUnderWay(ShardMap m) {
        java.util.Set<Long> ids = new java.util.TreeSet<>(m.movingTables().values());
        m.ghosts().forEach(g -> ids.add(g.moveId()));
        return ids;
    }

    /**
     * A standby is counted on: this home is a pair's primary with semi-sync on. Off, the operator let the
     * primary go on without one (and a promoted home has none yet).
     */
    private boolean attached() {
        return StandbyState.of(home).map(s -> s.role() == HostRole.PRIMARY && s.semiSync()).orElse(false);
    }
}
