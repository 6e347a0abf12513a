package io.cleave.proxy.unique;

import io.cleave.router.keyspace.KeyType;
import io.cleave.router.unique.UniqueIndex;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * The global unique keys the proxy enforces, by table: what {@code cleave.unique_keys} on the
 * default shard lists (read at start, written when a CREATE TABLE or CREATE UNIQUE INDEX through
 * the proxy declares one, removed with the key or the table). A key whose lookup is being built is
 * claimed by writes but routes no read; one whose build an earlier run left unfinished refuses
 * writes to its table. The hot path asks {@link #of} once per write to a sharded table: one map
 * read.
 */
public final class UniqueIndexes {

    /** The catalog, on the default shard: one row per global unique key. */
    public static final String CATALOG_DDL = "CREATE TABLE IF NOT EXISTS cleave.unique_keys ("
            + "schema_name VARCHAR(64) NOT NULL, table_name VARCHAR(64) NOT NULL, key_name VARCHAR(64) NOT NULL,"
            + " columns VARCHAR(2048) NOT NULL, types VARCHAR(255) NOT NULL, sharding_column VARCHAR(64) NOT NULL,"
            + " lookup_table VARCHAR(64) NOT NULL, lookup_shards INT NOT NULL,"
            + " PRIMARY KEY (schema_name, table_name, key_name)) ENGINE=InnoDB";

    public static final String CATALOG_SELECT = "SELECT schema_name, table_name, key_name, columns, types,"
            + " sharding_column, lookup_table, lookup_shards FROM cleave.unique_keys";

    /**
     * Keys whose lookup is being built from the rows a table already holds (CREATE UNIQUE INDEX):
     * a row from the start of the build to its end. One left by an earlier run was interrupted.
     */
    public static final String BUILDS_DDL = "CREATE TABLE IF NOT EXISTS cleave.unique_key_builds ("
            + "schema_name VARCHAR(64) NOT NULL, table_name VARCHAR(64) NOT NULL, key_name VARCHAR(64) NOT NULL,"
            + " PRIMARY KEY (schema_name, table_name, key_name)) ENGINE=InnoDB";

    public static final String BUILDS_SELECT = "SELECT schema_name, table_name, key_name FROM cleave.unique_key_builds";

    /** Lower-case schema, then lower-case table, to the table's keys. */
    private final ConcurrentHashMap<String, Map<String, List<UniqueIndex>>> byTable = new ConcurrentHashMap<>();
    /** The catalog was read (false while the default shard has been unreachable since the start). */
    private volatile boolean loaded = true;

    /** Keys whose lookup is being built now: writes claim their values, reads are not routed by them. */
    private final Set<UniqueIndex> building = ConcurrentHashMap.newKeySet();
    /** Keys whose build an earlier run left unfinished: writes to their tables are refused until the key is dropped. */
    private final Set<UniqueIndex> interrupted = ConcurrentHashMap.newKeySet();
    /** Builds under way, counted before they look at moves ({@link #startBuild}). */
    private final AtomicInteger builds = new AtomicInteger();
    private volatile BooleanSupplier movesUnderWay = () -> false;
    /**
     * Why a change of the keys ({@code what}: a build, a table declaring or dropping keys) is refused now besides a
     * move (another home's proxy serving these shards would not learn it), or null.
     */
    private volatile java.util.function.UnaryOperator<String> changesRefused = what -> null;

    /** The catalog could not be read: writes to sharded tables wait for {@link #load}. */
    public void unknown() {
        loaded = false;
    }

    /** The catalog's keys, read at start or once the default shard is back. */
    public void load(List<UniqueIndex> keys) {
        load(keys, List.of());
    }

    /** The catalog's keys and the builds an earlier run left (schema, table, key), read at start. */
    public void load(List<UniqueIndex> keys, List<List<String>> unfinishedBuilds) {
        for (UniqueIndex index : keys) {
            for (List<String> b : unfinishedBuilds) {
                if (b.get(0).equalsIgnoreCase(index.schema()) && b.get(1).equalsIgnoreCase(index.table())
                        && b.get(2).equalsIgnoreCase(index.name())) {
                    interrupted.add(index);
                }
            }
            add(index);
        }
        loaded = true;
    }

    /** What tells whether a move is under way: a lookup is not built while rows change shards. */
    public void movesUnderWay(BooleanSupplier moves) {
        this.movesUnderWay = moves;
    }

    /**
     * What tells why the keys may not change now (given what the change is), or null: another home's proxy serving
     * these shards too loaded its keys at its start and learns none added or dropped here, so its writes would not
     * claim a new key's values.
     */
    public void refuseChangesWhile(java.util.function.UnaryOperator<String> why) {
        this.changesRefused = why;
    }

    /** Why {@code what} (a statement declaring or dropping keys) is refused now, or null. */
    public String changeRefusal(String what) {
        return changesRefused.apply(what);
    }

    /**
     * Starts the build of {@code index}'s lookup: from now on writes claim its values, reads are
     * not routed by it. Returns why it may not start (a move is under way, or {@link #refuseChangesWhile}), or null.
     */
    public String startBuild(UniqueIndex index) {
        builds.incrementAndGet();
        if (movesUnderWay.getAsBoolean()) {
            builds.decrementAndGet();
            return "a move is under way: rows changing shards while the lookup of " + index.name()
                    + " is built could be missed; add the key once the move has ended";
        }
        String refused = changesRefused.apply("a global unique key's build");
        if (refused != null) {
            builds.decrementAndGet();
            return refused;
        }
        building.add(index);
        add(index);
        return null;
    }

    /** The build of {@code index} ended: {@code built} makes it a key like any other; otherwise it is gone. */
    public void endBuild(UniqueIndex index, boolean built) {
        if (!built) {
            remove(index);
        }
        building.remove(index);
        builds.decrementAndGet();
    }

    /**
     * {@code index} is complete: its lookup was filled under a move's cutover (shard-table, import)
     * that made its table sharded. A key an earlier run loaded as interrupted (the daemon stopped
     * between the key's registration and the end of that cutover) takes writes again.
     */
    public void complete(UniqueIndex index) {
        add(index);
        interrupted.remove(index);
    }

    /** {@code index}'s build could not be undone everywhere: writes to its table are refused (as after a crash). */
    public void interrupt(UniqueIndex index) {
        add(index);
        interrupted.add(index);
    }

    /** Whether a lookup is being built (moves wait for it to end). */
    public boolean buildsUnderWay() {
        return builds.get() > 0;
    }

    /** Whether reads may be routed by {@code index}'s lookup (false while it is built). */
    public boolean routable(UniqueIndex index) {
        return building.isEmpty() || !building.contains(index);
    }

    /**
     * The refusal of a write to a table with {@code indexes} when one of them was left half built
     * by an earlier run (its lookup misses rows: a write could let a duplicate in), or null.
     */
    public String unfinishedRefusal(List<UniqueIndex> indexes) {
        if (interrupted.isEmpty()) {
            return null;
        }
        for (UniqueIndex index : indexes) {
            if (interrupted.contains(index)) {
                return "the build of the global unique key " + index.name() + " of " + index.table()
                        + " was interrupted (the daemon stopped): writes to the table are refused until the move"
                        + " sharding the table completes it (cleave moves), or, built by CREATE UNIQUE INDEX or ALTER"
                        + " TABLE, until the key is dropped (DROP INDEX " + index.name() + " ON " + index.table()
                        + ") and created again";
            }
        }
        return null;
    }

    /** Whether the keys are known; until then no write to a sharded table may run (any could have one). */
    public boolean loaded() {
        return loaded;
    }

    /** The refusal of a write to a sharded table while the keys are not known, or null. */
    public String notLoadedRefusal(String table, int defaultShard) {
        return loaded ? null : "writes to the sharded table " + table + " wait for the global unique keys, which are read"
                + " from shard " + defaultShard + " once it is reachable again";
    }

    /** The table's global unique keys; empty when it has none. No allocation for lower-case names. */
    public List<UniqueIndex> of(String schema, String table) {
        if (byTable.isEmpty() || schema == null) {
            return List.of();
        }
        Map<String, List<UniqueIndex>> tables = byTable.get(schema.toLowerCase(Locale.ROOT));
        List<UniqueIndex> found = tables == null ? null : tables.get(table.toLowerCase(Locale.ROOT));
        return found == null ? List.of() : found;
    }

    public boolean isEmpty() {
        return byTable.isEmpty();
    }

    /** Every key of every table. */
    public List<UniqueIndex> all() {
        List<UniqueIndex> out = new ArrayList<>();
        byTable.values().forEach(tables -> tables.values().forEach(out::addAll));
        return out;
    }

    public synchronized void add(UniqueIndex index) {
        Map<String, List<UniqueIndex>> tables = byTable.computeIfAbsent(index.schema().toLowerCase(Locale.ROOT),
                k -> new ConcurrentHashMap<>());
        String table = index.table().toLowerCase(Locale.ROOT);
        List<UniqueIndex> next = new ArrayList<>(tables.getOrDefault(table, List.of()));
        next.removeIf(i -> i.name().equalsIgnoreCase(index.name()));
        next.add(index);
        tables.put(table, List.copyOf(next));
    }

    public synchronized void remove(UniqueIndex index) {
        String schema = index.schema().toLowerCase(Locale.ROOT);
        Map<String, List<UniqueIndex>> tables = byTable.get(schema);
        String table = index.table().toLowerCase(Locale.ROOT);
        if (tables == null || !tables.containsKey(table)) {
            return;
        }
        List<UniqueIndex> next = new ArrayList<>(tables.get(table));
        next.removeIf(i -> i.name().equalsIgnoreCase(index.name()));
        interrupted.remove(index);
        if (next.isEmpty()) {
            tables.remove(table);
            if (tables.isEmpty()) {
                byTable.remove(schema);
            }
        } else {
            tables.put(table, List.copyOf(next));
        }
    }

    /** The catalog row's values, in {@link #CATALOG_SELECT}'s order. */
    public static UniqueIndex fromRow(List<String> row) {
        List<String> columns = Arrays.asList(row.get(3).split(","));
        List<KeyType> types = new ArrayList<>();
        for (String t : row.get(4).split(",")) {
            types.add(t.equals("i") ? KeyType.INTEGER : t.equals("s") ? KeyType.STRING : null);
        }
        return new UniqueIndex(row.get(0), row.get(1), row.get(2), columns, types, row.get(5), row.get(6),
                Integer.parseInt(row.get(7)));
    }

    /** The catalog's row for {@code index}, as the VALUES of an INSERT ({@code quote} makes a string literal). */
    public static String catalogValues(UniqueIndex index, java.util.function.UnaryOperator<String> quote) {
        StringBuilder types = new StringBuilder();
        for (KeyType t : index.types()) {
            types.append(types.length() == 0 ? "" : ",").append(t == KeyType.INTEGER ? "i" : t == KeyType.STRING ? "s" : "o");
        }
        return "(" + quote.apply(index.schema()) + ", " + quote.apply(index.table()) + ", " + quote.apply(index.name())
                + ", " + quote.apply(String.join(",", index.columns())) + ", " + quote.apply(types.toString()) + ", "
                + quote.apply(index.shardingColumn()) + ", " + quote.apply(index.lookupTable()) + ", "
                + index.lookupShards() + ")";
    }
}
