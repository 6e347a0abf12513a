package io.cleave.manager.standby.layout;

import io.cleave.manager.imports.SourceUrl;
import io.cleave.manager.move.MapUpdates;
import io.cleave.manager.move.SchemaCopier;
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
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * An import the old primary had not cut over when this home took its map over (a promotion, a restart finishing
 * one): the map still homes the database's tables and views on the attached source, which holds every row and every
 * write its clients made since the attach, and which this home cannot reach (the source's password and the
 * import's journal stayed on the old primary). Its copy on this home's shards is partial at best. So the import is
 * dropped here: the copy's rows and the unique keys its cutover registered are deleted ({@link #clear}, before the
 * map is installed), and the installed map
 * ({@link #settle}) has no attachment, no rules of the import and no frozen tables left, and refuses the database
 * by name until {@code cleave import} runs again from this home or the database is dropped. The tables and the
 * database themselves stay (empty): the database may have been on the shards before the import, and an import
 * takes empty tables as they are.
 *
 * @param source   the attached server
 * @param database the imported database (from the source's label, {@code mysql://user@host:port/DATABASE})
 * @param names    the lower-case names of its tables and views the map homes on the source
 * @param moves    the moves (the import's) freezing those names
 */
public record UnfinishedImport(AttachedShard source, String database, List<String> names, Set<Long> moves) {

    private static final Logger log = LoggerFactory.getLogger(UnfinishedImport.class);

    /** Rows deleted per statement where a table cannot be truncated: several short transactions, not one long one. */
    private static final int CHUNK = 5_000;

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
     * A client dropped {@code database} on every shard (through the proxy): when the map refuses it, the next version
     * serves the name again (a database made under it later holds nothing of the import). Whether it did.
     */
    public static boolean dropped(MapUpdates maps, String database) {
        if (!maps.current().refusedDatabases().containsKey(database)) {
            return false;
        }
        maps.update(m -> m.refusedDatabases().containsKey(database) ? m.withoutRefusedDatabase(database) : m);
        log.info("database {} was dropped: no longer refused", database);
        return true;
    }

    /** What a client that names the database is told (the proxy's error message, after the access denied part). */
    String refusal() {
        return "its import from " + source.label() + " was cut short by a failover before its cutover (this home"
                + " became the primary), so its rows here are not whole; the source still holds the database. Run"
                + " 'cleave import --from " + source.label().replaceFirst("@", ":PASSWORD@") + "' again (or drop the"
                + " database) to use it";
    }

    /**
     * Deletes the rows of the import's tables in its database on every local shard ({@code shards} of them), in
     * chunks: the copy the import had made (an import refuses tables that already hold rows, so every row there is
     * its copy). Views and the tables' structure stay. The global unique keys its cutover may have registered
     * before the flip go with their lookups ({@link UnfinishedKeys}: the tables are sharded nowhere now). Runs before
     * the map is installed, so no client reads them.
     *
     * <p>Each table is truncated, which takes about as long whatever the copy's size: the promotion waits for this, so
     * deleting a large copy row by row would keep the whole home from serving. Foreign keys between the import's tables
     * are not checked meanwhile (every one of them is emptied); a table the server will not truncate is emptied by
     * chunked deletes instead.
     *
     * @param home the default shard (the unique keys' catalog)
     * @return the tables emptied, summed over the shards
     */
    long clear(Connection home, LookupFill.Shards open, int shards) throws SQLException {
        long emptied = 0;
        for (int shard = 0; shard < shards; shard++) {
            try (Connection c = open.open(shard); Statement s = c.createStatement()) {
                s.execute("SET SESSION foreign_key_checks = 0");
                try {
                    for (String table : baseTables(c)) {
                        empty(s, quote(database) + "." + quote(table));
                        emptied++;
                    }
                } finally {
                    s.execute("SET SESSION foreign_key_checks = 1");
                }
            }
        }
        for (long move : moves) {
            for (String name : names) {
                for (String line : UnfinishedKeys.settle(home, open, shards, name, false, move, "when this home was"
                        + " promoted", KeyRegistry.NONE)) {
                    log.info("import of {}: {}", source.label(), line);
                }
            }
        }
        log.info("import of {} cut short before its cutover: its copy emptied ({} tables on {} shards); database {}"
                + " refused until it is imported again or dropped", source.label(), emptied, shards, database);
        return emptied;
    }

    private static void empty(Statement s, String qualified) throws SQLException {
        try {
            s.execute("TRUNCATE TABLE " + qualified);
        } catch (SQLException refused) {
            log.info("{} not truncated ({}): deleting its rows in chunks", qualified, refused.getMessage());
            int n;
            do {
                n = s.executeUpdate("DELETE FROM " + qualified + " LIMIT " + CHUNK);
            } while (n > 0);
        }
    }

    /** The import's tables (not views) that exist in the database on this shard, as the shard names them. */
    private List<String> baseTables(Connection c) throws SQLException {
        return SchemaCopier.objects(c, database).tables().stream()
                .filter(t -> names.contains(t.toLowerCase(java.util.Locale.ROOT))).toList();
    }

    private static String quote(String name) {
        return "`" + name.replace("`", "``") + "`";
    }
}
