package io.cleave.manager.standby.layout;

import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.standby.HostRole;
import io.cleave.manager.standby.StandbyState;
import io.cleave.router.shardmap.ShardMap;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Layout changes a standby cannot follow yet. Moves, rebalancing and shard-table change only the map
 * (replicated, see {@link MapReplication}) and rows (replicated); but a scale starts or stops shards the
 * standby has no replica of, and an import routes to a server the standby does not replicate. Both are
 * refused while a standby is attached, and a standby cannot attach while either, or a move, is under way.
 * (One started while a standby is being seeded, before semi-sync is on, is not caught.)
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

    /** Why {@code cleave scale} is refused now, or null. */
    public String scaleRefusal() {
        return attached() ? "a standby is attached (semi-sync on): it has no replica of shards a scale adds, and keeps"
                + " replicating shards a scale removes, so scaling with a standby is not supported yet. To scale anyway:"
                + " 'cleave standby --semi-sync off' here (the standby is then no longer counted on), scale, and seed a"
                + " new standby with 'cleave standby'" : null;
    }

    /** Why {@code cleave import} is refused now, or null. */
    public String importRefusal() {
        return attached() ? "a standby is attached (semi-sync on): an import routes the database to a server the"
                + " standby does not replicate, so importing with a standby is not supported yet. Import before"
                + " attaching one, or: 'cleave standby --semi-sync off' here (the standby is then no longer counted on),"
                + " import, and seed a new standby with 'cleave standby'" : null;
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
