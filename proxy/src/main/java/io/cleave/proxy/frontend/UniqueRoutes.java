package io.cleave.proxy.frontend;

import io.cleave.proxy.metrics.RouteKind;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.plan.KeyValue;
import io.cleave.router.plan.ParameterValues;
import io.cleave.router.plan.Plan;
import io.cleave.router.plan.Resolution;
import io.cleave.router.plan.SqlRenderer;
import io.cleave.router.plan.SqlTemplate;
import io.cleave.router.plan.UniqueProbe;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
import io.cleave.router.unique.LookupPlacement;
import io.cleave.router.unique.UniqueIndex;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * SELECT, UPDATE and DELETE of a table with global unique keys. Equality or IN on every column of
 * such a key, where the statement would otherwise reach every shard, first reads the values'
 * lookup rows and then runs where their keys point (no lookup row: no row has the value, and one
 * shard answers with nothing). An UPDATE that sets a key's columns claims the new value's lookup
 * row first ({@link UniqueInsert}): it must name one sharding key and set every column of the key
 * to a value; other shapes are refused, never applied without the lookup.
 */
final class UniqueRoutes {

    private final Session session;
    private final PlanExecutor executor;
    private final UniqueInsert claims;

    UniqueRoutes(Session session, PlanExecutor executor) {
        this.session = session;
        this.executor = executor;
        this.claims = new UniqueInsert(session);
    }

    /** Whether the command was taken (run, refused or waiting for its lookup). */
    boolean run(Command command, Plan.Route r, Runnable rerun) {
        UniqueProbe p = r.probe();
        if (!session.runtime().uniqueIndexes().loaded() && r.write()) {
            command.refuse(1105, "HY000", session.runtime().uniqueIndexes().notLoadedRefusal(p.table(),
                    session.runtime().topology().defaultShard()));
            return true;
        }
        if (session.runtime().uniqueIndexes().isEmpty()) {
            return false;
        }
        String schema = p.schema() != null ? p.schema() : session.settings().schema();
        List<UniqueIndex> indexes = session.runtime().uniqueIndexes().of(schema, p.table());
        if (indexes.isEmpty()) {
            return false;
        }
        String unfinished = r.write() ? session.runtime().uniqueIndexes().unfinishedRefusal(indexes) : null;
        if (unfinished != null) {
            command.refuse(unfinished);
            return true;
        }
        if (p.insertSet()) {
            command.refuse("INSERT ... SET into " + p.table() + ", which has the global unique key " + indexes.get(0).name()
                    + ", is not supported: write it as INSERT ... VALUES so the key's lookup row goes first");
            return true;
        }
        List<UniqueIndex> changed = new ArrayList<>();
        for (UniqueIndex index : indexes) {
            for (String c : index.columns()) {
                if (p.assigned().containsKey(c.toLowerCase(Locale.ROOT)) && !changed.contains(index)) {
                    changed.add(index);
                }
            }
        }
        if (!changed.isEmpty()) {
            update(command, p, schema, changed);
            return true;
        }
        for (UniqueIndex index : indexes) {
            // A lookup being built misses rows not reached yet: the statement goes where it went before.
            List<List<KeyValue>> values = session.runtime().uniqueIndexes().routable(index) ? values(index, p) : null;
            if (values != null && spreads(command, r)) {
                return lookup(command, index, values, rerun);
            }
        }
        return false;
    }

    /** Whether the route reaches more than one shard without a lookup. */
    private boolean spreads(Command command, Plan.Route r) {
        try {
            Resolution res = session.runtime().resolver().resolve(r.target(), command.values(),
                    session.runtime().shardMaps().current());
            return !res.isError() && !res.isAny() && !res.isSingle();
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /** The values the WHERE requires of the key: one list per value (one entry per column), or null. */
    private static List<List<KeyValue>> values(UniqueIndex index, UniqueProbe p) {
        List<List<KeyValue>> out = new ArrayList<>();
        if (index.columns().size() == 1) {
            List<KeyValue> in = p.equalities().get(index.columns().get(0).toLowerCase(Locale.ROOT));
            if (in == null) {
                return null;
            }
            for (KeyValue v : in) {
                out.add(List.of(v));
            }
            return out;
        }
        List<KeyValue> one = new ArrayList<>();
        for (String c : index.columns()) {
            List<KeyValue> in = p.equalities().get(c.toLowerCase(Locale.ROOT));
            if (in == null || in.size() != 1) {
                return null;
            }
            one.add(in.get(0));
        }
        out.add(one);
        return out;
    }

    /** Reads the lookup rows of {@code values}, then runs the command again on the shards their keys are on. */
    private boolean lookup(Command command, UniqueIndex index, List<List<KeyValue>> values, Runnable rerun) {
        ParameterValues params = command.values();
        Map<Integer, ByteArrayOutputStream> perShard = new LinkedHashMap<>();
        for (List<KeyValue> value : values) {
            List<ShardKey> keys = new ArrayList<>();
            ByteArrayOutputStream eq = new ByteArrayOutputStream();
            write(eq, "(");
            for (int c = 0; c < value.size(); c++) {
                if (!(value.get(c) instanceof KeyValue.SlotValue slot)) {
                    return false;
                }
                if (params.isNull(slot.slot())) {
                    continue; // = NULL matches no row
                }
                KeyType type = index.types().get(c);
                ShardKey key = type == null ? null : params.key(slot.slot(), type);
                if (type != null && (key == null || slot.negated())) {
                    return false; // the scatter answers it as before
                }
                keys.add(key);
                write(eq, (c == 0 ? "" : " AND ") + "`" + index.columns().get(c).replace("`", "``") + "` = ");
                params.appendPortableSql(slot.slot(), eq);
            }
            if (keys.size() != value.size()) {
                continue;
            }
            write(eq, ")");
            int shard = LookupPlacement.shardOf(index, keys);
            ByteArrayOutputStream out = perShard.get(shard);
            if (out == null) {
                out = new ByteArrayOutputStream();
                write(out, "SELECT " + UniqueIndex.KEY_COLUMN + " FROM " + index.qualifiedLookup() + " WHERE ");
                perShard.put(shard, out);
            } else {
                write(out, " OR ");
            }
            out.write(eq.toByteArray(), 0, eq.size());
        }
        Keyspace keyspace = keyspace(index);
        if (keyspace == null) {
            return false;
        }
        boolean inTransaction = session.inTransaction(command);
        MultiExchange multi = new MultiExchange(new CommandLegs(session, command), inTransaction, results -> {
            ShardMap map = session.runtime().shardMaps().current();
            TreeSet<Integer> shards = new TreeSet<>();
            for (LegResult leg : results) {
                if (!leg.ok()) {
                    command.error(leg.errorPacket());
                    return;
                }
                for (var row : leg.rows) {
                    ShardKey key = keyspace.function().keyType() == KeyType.INTEGER
                            ? ShardKey.of(Long.parseLong(row.string(0))) : ShardKey.ofString(row.string(0));
                    int shard = session.runtime().resolver().shardOf(keyspace, key, map);
                    if (shard >= 0) {
                        shards.add(shard);
                    }
                }
            }
            if (shards.isEmpty()) {
                // No row has the value: any one shard answers with none.
                shards.add(results.isEmpty() ? session.anyShard() : results.get(0).shard);
            }
            command.lookedUp(shards.stream().mapToInt(Integer::intValue).toArray());
            rerun.run();
        });
        if (perShard.isEmpty()) {
            command.lookedUp(new int[]{session.anyShard()});
            rerun.run();
            return true;
        }
        // Through Cleave's procedure: the account reads the lookup only so (LookupCalls).
        perShard.forEach((shard, sql) -> multi.leg(shard, session.lookupCalls().call(sql.toByteArray())));
        command.clearLongData();
        multi.start();
        return true;
    }

    private void update(Command command, UniqueProbe p, String schema, List<UniqueIndex> changed) {
        UniqueIndex first = changed.get(0);
        String shape = "UPDATE of the unique key " + first.name() + " (" + String.join(", ", first.columns()) + ") of "
                + p.table();
        if (!p.singleTable() || p.ignore()) {
            command.refuse(shape + (p.ignore() ? " with IGNORE" : " in a statement over several tables")
                    + " is not supported across shards: its lookup could not follow");
            return;
        }
        Keyspace keyspace = keyspace(first);
        if (p.shardingKeys().size() != 1 || keyspace == null) {
            command.refuse(shape + " must name one row's sharding key (" + first.shardingColumn() + " = value), so the"
                    + " new value's lookup row names the row that holds it: not supported across shards otherwise");
            return;
        }
        UniqueRows u = UniqueRows.ofUpdate(command.values(), changed, p.assigned(), p.assignedNull(),
                p.shardingKeys().get(0), keyspace.function().keyType());
        if (u == null || u.key[0] == null) {
            command.refuse(shape + " must set every column of the key to a value (not an expression), and name the"
                    + " sharding key " + first.shardingColumn() + " as a value: not supported across shards otherwise");
            return;
        }
        int shard = session.runtime().resolver().shardOf(keyspace, u.key[0], session.runtime().shardMaps().current());
        if (shard < 0) {
            command.refuse(shape + ": no shard holds the sharding key " + u.key[0]);
            return;
        }
        byte[] statement = SqlRenderer.render(new SqlTemplate.Original(), command.analysis(), command.values());
        command.clearLongData();
        claims.run(command, Plan.Conflicts.FAIL, false, u,
                UniqueInsert.Base.update(schema, p.table(), keyspace, statement, shard));
    }

    private Keyspace keyspace(UniqueIndex index) {
        if (session.runtime().topology().ruleFor(index.table()) instanceof TableRule.Sharded s) {
            return session.runtime().topology().keyspace(s.keyspace());
        }
        return null;
    }

    private static void write(ByteArrayOutputStream out, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.write(b, 0, b.length);
    }
}
