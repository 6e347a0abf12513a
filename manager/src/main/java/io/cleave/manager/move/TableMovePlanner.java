package io.cleave.manager.move;

import io.cleave.manager.unique.MovedKey;
import io.cleave.router.keyspace.HashShardFunction;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Plans moves of whole tables that live on one shard (unsharded tables) to a new rule:
 * {@code cleave shard-table} and the tables a scale takes off leaving shards. Checks everything
 * that would make the move fail or the new rule wrong before anything happens: the table and its
 * primary key, that unique keys hold the sharding column, that the targets have the table empty
 * (it is created where missing), that no other schema shares the name (rules apply to a name).
 */
final class TableMovePlanner {

    private final ShardLinks shards;
    private final MapUpdates maps;

    TableMovePlanner(ShardLinks shards, MapUpdates maps) {
        this.shards = shards;
        this.maps = maps;
    }

    /** {@code cleave shard-table SCHEMA.TABLE} to {@code destination}. */
    MoveRecord shardTable(String qualified, TableRule destination) {
        int dot = qualified.indexOf('.');
        if (dot <= 0 || dot == qualified.length() - 1) {
            throw bad("name the table with its database, as DB.TABLE, not '" + qualified + "'");
        }
        String schema = qualified.substring(0, dot);
        String table = qualified.substring(dot + 1);
        Topology routing = maps.routing();
        ShardMap map = maps.current();
        TableRule current = routing.ruleFor(table);
        if (!(current instanceof TableRule.Unsharded home)) {
            throw bad("table " + table + " is " + RuleSpec.of(current) + " already: only a table that lives on one shard"
                    + " can be sharded, made a reference table or given another home");
        }
        if (map.isAttached(home.homeShard())) {
            throw conflict("table " + table + " is being imported (it lives on the import's source): wait until the"
                    + " import is done");
        }
        if (RuleSpec.of(current).toRule(table).equals(RuleSpec.of(destination).toRule(table))) {
            throw bad("table " + table + " is " + RuleSpec.of(current) + " already: nothing to move");
        }
        return plan(schema, table, home.homeShard(), destination(table, destination), true);
    }

    /**
     * Every schema's table {@code table} on {@code source} to {@code destination} (a scale takes
     * unsharded tables off the shards that leave).
     */
    MoveRecord rehome(String table, int source, TableRule destination) {
        return plan(null, table, source, destination, false);
    }

    private TableRule destination(String table, TableRule d) {
        ShardMap map = maps.current();
        if (d instanceof TableRule.Sharded s) {
            Keyspace ks = maps.topology().keyspaces().get(s.keyspace());
            if (ks == null) {
                throw bad("unknown keyspace '" + s.keyspace() + "': the keyspaces are "
                        + new TreeSet<>(maps.topology().keyspaces().keySet()));
            }
            return new TableRule.Sharded(table, s.keyspace(), s.column());
        }
        if (d instanceof TableRule.Unsharded u) {
            if (u.homeShard() < 0 || u.homeShard() >= map.shardCount()) {
                throw new MoveRefused(MoveRefused.Kind.NOT_FOUND, "shard " + u.homeShard() + " does not exist: the shards"
                        + " are 0-" + (map.shardCount() - 1));
            }
            return new TableRule.Unsharded(table, u.homeShard());
        }
        return new TableRule.Reference(table);
    }

    private MoveRecord plan(String schema, String table, int source, TableRule destination, boolean oneSchema) {
        ShardMap map = maps.current();
        List<Integer> targets = targets(map, destination, source);
        MoveRecord r = new MoveRecord();
        r.kind = MoveKind.TABLES;
        r.source = source;
        r.targets = targets;
        r.keepSource = destination instanceof TableRule.Reference;
        try (Connection s = shards.open(source)) {
            List<String[]> found = Catalog.find(s, table);
            if (schema != null && found.stream().noneMatch(f -> f[0].equals(schema))) {
                throw new MoveRefused(MoveRefused.Kind.NOT_FOUND, "there is no table " + schema + "." + table + " on shard "
                        + source + ", where tables named " + table + " live");
            }
            if (oneSchema && found.size() > 1) {
                throw bad("tables named " + table + " exist in " + found.stream().map(f -> f[0]).toList() + ": a sharding"
                        + " rule applies to a table name in every database, so they would all change; rename all but one");
            }
            for (String[] f : found) {
                r.tables.add(check(s, f[0], f[1], source, destination));
            }
        } catch (SQLException e) {
            throw conflict("cannot read table " + table + " on shard " + source + ": " + e.getMessage());
        }
        for (int t : targets) {
            prepareTarget(r, t);
        }
        if (destination instanceof TableRule.Sharded s) {
            refuseUnfilterable(s, source, map);
        }
        r.origin = "shard-table";
        return r;
    }

    private static List<Integer> targets(ShardMap map, TableRule destination, int source) {
        List<Integer> out = new ArrayList<>();
        if (destination instanceof TableRule.Unsharded u) {
            if (u.homeShard() == source) {
                throw bad("table " + destination.table() + " lives on shard " + source + " already: nothing to move");
            }
            out.add(u.homeShard());
        } else {
            // Every shard: a reference table's copies, or where a sharded table's rows may go (their
            // buckets' shards when they are copied).
            for (int s = 0; s < map.shardCount(); s++) {
                if (s != source) {
                    out.add(s);
                }
            }
        }
        return out;
    }

    /** The table's primary key, and for a sharded rule its column and unique keys. */
    private TableProgress check(Connection c, String schema, String table, int source, TableRule destination)
            throws SQLException {
        List<String> pk = Catalog.primaryKey(c, schema, table);
        if (pk.isEmpty()) {
            throw bad("table " + schema + "." + table + " has no primary key: moving a table copies, verifies and"
                    + " cleans up its rows by primary key; add one first");
        }
        String triggers = Catalog.triggerRefusal(c, schema, table, "shard " + source);
        if (triggers != null) {
            throw bad(triggers);
        }
        TableRule rule = destination;
        if (destination instanceof TableRule.Sharded s) {
            Map<String, String> columns = Catalog.columns(c, schema, table);
            String column = Catalog.column(columns, s.column());
            if (column == null) {
                throw bad("table " + schema + "." + table + " has no column " + s.column() + ": its columns are "
                        + columns.keySet());
            }
            refuseBrokenKeys(c, schema, table, column);
            rule = new TableRule.Sharded(table, s.keyspace(), column);
        }
        return TableProgress.of(schema, table, pk, rule);
    }

    /**
     * Unique keys without the sharding column become global unique keys, their lookups filled at the
     * cutover: refused now, with nothing moved, when one cannot be (a column prefix) or when the
     * rows already break it.
     */
    private void refuseBrokenKeys(Connection c, String schema, String table, String column) throws SQLException {
        try {
            for (MovedKey key : MovedKey.of(c, schema, table, column, maps.current().shardCount())) {
                List<String> duplicates = key.duplicates(c, 10);
                if (!duplicates.isEmpty()) {
                    throw bad(key.duplicatesRefusal(duplicates));
                }
            }
        } catch (MovedKey.Unsupported e) {
            throw bad(e.getMessage());
        }
    }

    /** Creates the table on a target where it is missing; refuses one that already holds rows. */
    private void prepareTarget(MoveRecord r, int target) {
        try (Connection source = shards.open(r.source); Connection t = shards.open(target);
             Statement st = t.createStatement()) {
            for (TableProgress table : r.tables) {
                if (Catalog.find(t, table.table).stream().noneMatch(f -> f[0].equals(table.schema))) {
                    st.execute(Catalog.showCreateDatabase(source, table.schema)
                            .replaceFirst("(?i)^CREATE DATABASE ", "CREATE DATABASE IF NOT EXISTS "));
                    st.execute("USE " + Sql.quote(table.schema));
                    st.execute(Catalog.showCreateTable(source, table.schema, table.table)
                            .replaceFirst("(?i)^CREATE TABLE ", "CREATE TABLE IF NOT EXISTS "));
                } else if (Catalog.hasRows(t, table.schema, table.table)) {
                    throw conflict("table " + table + " already holds rows on shard " + target + ": the move would mix"
                            + " them with the copied ones; empty it there first");
                }
            }
        } catch (SQLException e) {
            throw conflict("cannot prepare shard " + target + " for " + r.what() + ": " + e.getMessage());
        }
    }

    /**
     * After the cutover the old home keeps rows of keys it no longer holds until cleanup deletes
     * them; statements over several shards leave them out by a condition on the key, which string
     * keys of a hash keyspace cannot have yet.
     */
    private void refuseUnfilterable(TableRule.Sharded s, int source, ShardMap map) {
        Keyspace ks = maps.topology().keyspace(s.keyspace());
        boolean ownsSome = false;
        for (int o : map.owners(s.keyspace())) {
            ownsSome |= o == source;
        }
        if (ownsSome && ks.function() instanceof HashShardFunction && ks.function().keyType() == KeyType.STRING) {
            throw bad("keyspace " + s.keyspace() + " hashes string keys and shard " + source + " holds some of its buckets:"
                    + " until the table's other rows are deleted there, statements over several shards could not leave"
                    + " them out; this is not supported yet");
        }
    }

    private static MoveRefused bad(String message) {
        return new MoveRefused(MoveRefused.Kind.BAD_REQUEST, message);
    }

    private static MoveRefused conflict(String message) {
        return new MoveRefused(MoveRefused.Kind.CONFLICT, message);
    }
}
