package io.cleave.manager.standby.layout;

import io.cleave.manager.imports.SourceUrl;
import io.cleave.manager.move.MapUpdates;
import io.cleave.manager.held.HeldTables;
import io.cleave.manager.unique.KeyRegistry;
import io.cleave.manager.unique.LookupFill;
import io.cleave.manager.unique.UnfinishedKeys;
import io.cleave.router.shardmap.AttachedShard;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * An import the old primary had not cut over when this home took its map over (a promotion, a restart finishing
 * one): the map still homes the database's tables and views on the attached source, which holds every row and every
 * write its clients made since the attach, and which this home cannot reach (the source's password and the
 * import's journal stayed on the old primary). Its copy on this home's shards is partial at best. So the import is
 * dropped here: the unique keys its cutover registered are deleted and its tables set aside ({@link #clear}, before
 * the map is installed), and the installed map ({@link #settle}) has no attachment, no rules of the import and no
 * frozen tables left, and refuses the database by name until {@code cleave import} runs again from this home or the
 * database is dropped. The tables are held, not dropped: the database may have been on the shards before the import,
 * which takes empty tables as they are; the import run again puts them back emptied, a DROP DATABASE drops them.
 *
 * @param source   the attached server
 * @param database the imported database (from the source's label, {@code mysql://user@host:port/DATABASE})
 * @param names    the lower-case names of its tables and views the map homes on the source
 * @param moves    the moves (the import's) freezing those names
 */
public record UnfinishedImport(AttachedShard source, String database, List<String> names, Set<Long> moves) {

    private static final Logger log = LoggerFactory.getLogger(UnfinishedImport.class);

    /** The imports {@code map} still routes to their source: attached servers a rule homes a table or view on. */
    static List<UnfinishedImport> in(ShardMap map) {
        List<UnfinishedImport> out = new ArrayList<>();
        for (AttachedShard a : map.attached()) {
            List<String> names = new ArrayList<>();
            Set<Long> moves = new TreeSet<>();
            for (TableRule r : map.rules().values()) {
                if (r instanceof TableRule.Unsharded u && u.homeShard() == a.index()) {
                    names.add(u.table().toLowerCase(java.util.Locale.ROOT));
                    Long move = map.movingTables().get(u.table().toLowerCase(java.util.Locale.ROOT));
                    if (move != null) {
                        moves.add(move);
                    }
                }
            }
            if (!names.isEmpty()) {
                out.add(new UnfinishedImport(a, SourceUrl.parse(a.label()).database(), List.copyOf(names), Set.copyOf(moves)));
            }
        }
        return out;
    }

    /**
     * {@code map} without {@code imports} (as one version: the caller numbers it): their rules, frozen tables and
     * ghosts gone, every attached server from the first of them on let go (an index follows the ones before it; the
     * ones after an unfinished import are imports of the same primary, dropped too), and their databases refused.
     */
    static ShardMap settle(ShardMap map, List<UnfinishedImport> imports) {
        if (imports.isEmpty()) {
            return map;
        }
        ShardMap out = map;
        for (UnfinishedImport i : imports) {
            for (String name : i.names) {
                out = out.withoutRule(name);
            }
            for (long move : i.moves) {
                out = out.withoutMovingTables(move).withoutGhosts(move);
            }
            out = out.withRefusedDatabase(i.database, i.refusal());
        }
        int first = imports.stream().mapToInt(i -> i.source.index()).min().orElseThrow();
        for (int index = out.shardCount() + out.attached().size() - 1; index >= first; index--) {
            out = out.withoutAttached(index);
        }
        return out;
    }

    /**
     * A client dropped {@code database} on every shard (through the proxy): when the map refuses it, its held tables
     * are dropped too and the next version serves the name again (a database made under it later holds nothing of
     * the import). Whether it did.
     */
    public static boolean dropped(MapUpdates maps, LookupFill.Shards open, String database) {
        if (!maps.current().refusedDatabases().containsKey(database)) {
            return false;
        }
        for (int shard = 0; shard < maps.current().shardCount(); shard++) {
            try (Connection c = open.open(shard)) {
                HeldTables.drop(c, database);
            } catch (SQLException e) {
                // The name is the client's again all the same; what stays is named, and an import of it puts it back.
                log.warn("database {} was dropped, but its tables set aside on shard {} were not: {}", database, shard,
                        e.getMessage());
            }
        }
        maps.update(m -> m.refusedDatabases().containsKey(database) ? m.withoutRefusedDatabase(database) : m);
        log.info("database {} was dropped: no longer refused", database);
        return true;
    }

    /** What a client that names the database is told (the proxy's error message, after the access denied part). */
    String refusal() {
        return "its import from " + source.label() + " was cut short by a failover before its cutover (this home"
                + " became the primary), so its rows here are not whole: its tables are set aside (a view or routine"
                + " of another database that reads them fails meanwhile); the source still holds the database. Run"
                + " 'cleave import --from " + source.label().replaceFirst("@", ":PASSWORD@") + "' again (or drop the"
                + " database) to use it";
    }

    /**
     * Sets the import's tables in its database aside on every local shard ({@code shards} of them), out of every
     * client's reach ({@link HeldTables}): refusing the database by name does not stop a view, routine, trigger or
     * event of another database from reading them, and the copy there is partial, so they must be missing, not
     * empty. Renaming waits for no row, so a large copy costs the promotion what a small one does. Views and
     * routines of the database stay (they fail while its tables are held). The global unique keys its cutover may
     * have registered before the flip go first, with their lookups ({@link UnfinishedKeys}: the tables are sharded
     * nowhere now; it finds their indexes where the tables are). Runs before the map is installed, so no client reads
     * them; a promotion that stopped half way holds the rest when it runs again.
     *
     * @param home the default shard (the unique keys' catalog)
     * @return the tables set aside, summed over the shards
     */
    long clear(Connection home, LookupFill.Shards open, int shards) throws SQLException {
        for (long move : moves) {
            for (String name : names) {
                for (String line : UnfinishedKeys.settle(home, open, shards, name, false, move, "when this home was"
                        + " promoted", KeyRegistry.NONE)) {
                    log.info("import of {}: {}", source.label(), line);
                }
            }
        }
        long held = 0;
        for (int shard = 0; shard < shards; shard++) {
            try (Connection c = open.open(shard)) {
                held += HeldTables.hold(c, database, names).size();
            }
        }
        log.info("import of {} cut short before its cutover: its tables set aside ({} on {} shards); database {}"
                + " refused until it is imported again or dropped", source.label(), held, shards, database);
        return held;
    }
}
