package io.cleave.proxy.frontend;

import io.cleave.proxy.metrics.RouteKind;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.protocol.packet.server.OkPacket;
import io.cleave.proxy.unique.LookupCalls;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.plan.Plan;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.unique.LookupPlacement;
import io.cleave.router.unique.UniqueIndex;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * An INSERT (IGNORE, ON DUPLICATE KEY UPDATE) or REPLACE into a sharded table with global unique
 * keys, in one atomic statement ({@link AtomicStatement}), lookup rows before rows:
 * <ol>
 * <li><b>Claim</b>: each row's value goes into each key's lookup table on the value's shard
 * ({@code INSERT IGNORE}, one statement per row, so every row's outcome is known). A row that got
 * its lookup row is the value's only holder: concurrent claims of a value wait on its lock.</li>
 * <li>Only when some value was already there: <b>lock</b> those lookup rows ({@code FOR UPDATE})
 * and read whose key holds each (or which earlier row of this statement has the same value),
 * then <b>verify</b> on the holder key's shard that a row really holds the value. A lookup row
 * whose row is gone (deleted, or its value changed) is an orphan: the new row takes it over.</li>
 * <li><b>Write</b>: the rows to their shards; a row whose value a stored row holds fails the
 * statement with the server's 1062 naming the key, is skipped (IGNORE), replaces that row
 * wherever it lives (REPLACE), or updates it on its shard (ON DUPLICATE KEY UPDATE: the row goes
 * to the holder's shard, whose own unique index finds the holder).</li>
 * </ol>
 * The whole runs in one transaction (the session's, or one of its own committed at the end), so a
 * lookup row exists for every row; DELETE and UPDATE leave orphans, which the next claim of the
 * value takes over after verifying. The lookup statements run on the client's connections through
 * Cleave's procedure ({@link LookupCalls}), each claim leg after a write to the table that changes
 * no row, so an account that may not write it gets the shard's 1142 before any claim counts.
 */
final class UniqueInsert {

    private final Session session;

    UniqueInsert(Session session) {
        this.session = session;
    }

    /**
     * Where each row goes and what the client sees, as the statement texts were rendered: an
     * INSERT's rows ({@code head}, each row, {@code tail}), or one statement for one shard
     * ({@code whole}: an UPDATE that gives one row its values, {@code shardOfRow} its shard).
     */
    record Base(String schema, String table, Keyspace keyspace, byte[] head, byte[][] rows, byte[] tail,
                int[] shardOfRow, long firstGeneratedId, byte[] whole) {

        static Base update(String schema, String table, Keyspace keyspace, byte[] statement, int shard) {
            return new Base(schema, table, keyspace, null, null, null, new int[]{shard}, 0, statement);
        }
    }

    /** An INSERT or REPLACE of rows. */
    void run(Command command, Plan.InsertSplit split, UniqueRows u, Base base) {
        run(command, split.conflicts(), split.replace(), u, base);
    }

    /** {@code conflicts} and {@code replace}: what a row does that meets a stored row's value. */
    void run(Command command, Plan.Conflicts conflicts, boolean replace, UniqueRows u, Base base) {
        String refusal = u.refusal();
        if (refusal == null) {
            refusal = shapeRefusal(conflicts, replace, base.table(), u);
        }
        int n = u.indexes.size();
        int[][] lookupShard = new int[n][u.rows];
        for (int x = 0; refusal == null && x < n; x++) {
            UniqueIndex index = u.indexes.get(x);
            for (int r = 0; r < u.rows; r++) {
                lookupShard[x][r] = -1;
                if (!u.entered(x, r)) {
                    continue;
                }
                if (index.spread() && java.util.Arrays.asList(u.keys[x][r]).contains(null)) {
                    refusal = "the value " + u.shown(x, r) + " of row " + (r + 1) + " for the unique key "
                            + index.name() + " of " + index.table() + " is not one the proxy can place (a number"
                            + " for a string column, a fraction for an integer one): write it as the column's type";
                    break;
                }
                lookupShard[x][r] = LookupPlacement.shardOf(index, java.util.Arrays.asList(u.keys[x][r]));
                if (lookupShard[x][r] >= session.runtime().shardMaps().current().shardCount()) {
                    refusal = "the lookup of unique key " + index.name() + " of " + index.table() + " is on shard "
                            + lookupShard[x][r] + ", which no longer runs";
                    break;
                }
            }
        }
        if (refusal != null) {
            command.refuse(refusal);
            return;
        }
        command.served(RouteKind.MULTI_SHARD);
        new Run(command, conflicts, replace, u, base, lookupShard).claim();
    }

    private static String shapeRefusal(Plan.Conflicts conflicts, boolean replace, String table, UniqueRows u) {
        boolean resolves = replace || conflicts.updates();
        if (resolves && u.indexes.size() > 1) {
            return (replace ? "REPLACE" : "INSERT ... ON DUPLICATE KEY UPDATE") + " into " + table
                    + " with several global unique keys (" + names(u.indexes) + ") could meet a different row on each:"
                    + " not supported across shards";
        }
        for (UniqueIndex index : u.indexes) {
            for (String column : conflicts.onDuplicateUpdates()) {
                if (index.indexOf(column) >= 0) {
                    return "ON DUPLICATE KEY UPDATE of " + column + ", a column of the unique key " + index.name()
                            + " of " + table + ", is not supported across shards (its lookup would have to"
                            + " follow the change)";
                }
            }
        }
        return null;
    }

    private static String names(List<UniqueIndex> indexes) {
        List<String> out = new ArrayList<>();
        for (UniqueIndex i : indexes) {
            out.add(i.name());
        }
        return String.join(", ", out);
    }

    /** One execution's state across its rounds. */
    private final class Run {
        final Command command;
        final Plan.Conflicts conflicts;
        final boolean replace;
        final UniqueRows u;
        final Base base;
        final int[][] lookupShard;
        final AtomicStatement statement;
        final int n;
        /** [index][row]: the row got the value's lookup row in the claim. */
        final boolean[][] claimed;
        /** [index][row]: the row whose value this row repeats in the statement, or -1. */
        final int[][] repeats;
        /** [index][row]: the shard of a stored row holding the row's value, or -1. */
        final int[][] heldOn;
        /** [index][row]: a lookup row of another key, whose row is to be verified; its key's text. */
        final String[][] otherKey;

        Run(Command command, Plan.Conflicts conflicts, boolean replace, UniqueRows u, Base base, int[][] lookupShard) {
            this.command = command;
            this.conflicts = conflicts;
            this.replace = replace;
            this.u = u;
            this.base = base;
            this.lookupShard = lookupShard;
            this.n = u.indexes.size();
            this.claimed = new boolean[n][u.rows];
            this.repeats = new int[n][u.rows];
            this.heldOn = new int[n][u.rows];
            this.otherKey = new String[n][u.rows];
            for (int x = 0; x < n; x++) {
                java.util.Arrays.fill(repeats[x], -1);
                java.util.Arrays.fill(heldOn[x], -1);
            }
            this.statement = new AtomicStatement(session, command);
        }

        /** Step 1: every value into its lookup table, one statement per row. */
        void claim() {
            Map<Integer, List<byte[]>> perShard = new LinkedHashMap<>();
            Map<Integer, List<int[]>> which = new LinkedHashMap<>();
            for (int x = 0; x < n; x++) {
                for (int r = 0; r < u.rows; r++) {
                    if (lookupShard[x][r] < 0) {
                        continue;
                    }
                    UniqueSql s = new UniqueSql(u, "INSERT IGNORE INTO ").add(u.indexes.get(x).qualifiedLookup()).add(" (");
                    for (String c : u.indexes.get(x).columns()) {
                        s.id(c).add(", ");
                    }
                    s.add(UniqueIndex.KEY_COLUMN).add(") VALUES (");
                    for (byte[] v : u.sql[x][r]) {
                        s.add(v).add(", ");
                    }
                    s.add(u.keySql[r]).add(")");
                    add(perShard, which, lookupShard[x][r], s, x, r);
                }
            }
            byte[] check = writeCheck();
            if (check != null) {
                // Before the claims, on each of their connections: an account that may not write the
                // table gets the shard's own 1142 for it, and the statement is undone with its claims.
                perShard.values().forEach(statements -> statements.add(0, check));
            }
            statement.round(legs(perShard), results -> {
                boolean contested = false;
                for (LegResult leg : results) {
                    List<int[]> rows = which.get(leg.shard);
                    int offset = leg.affectedEach.size() - rows.size();
                    for (int i = 0; i < rows.size(); i++) {
                        int[] xr = rows.get(i);
                        claimed[xr[0]][xr[1]] = leg.affectedEach.get(offset + i) == 1;
                        contested |= !claimed[xr[0]][xr[1]];
                    }
                }
                boolean anyContested = contested;
                io.cleave.proxy.unique.UniqueHooks.lookupWritten(session.loop().loop(), () -> {
                    if (anyContested) {
                        lock();
                    } else {
                        writeRows(new boolean[u.rows], base.shardOfRow(), 0);
                    }
                });
            });
        }

        /**
         * Step 2: each contested lookup row locked, with the key it names and the first row of
         * the statement (up to the contested one) with its value, as the server compares them:
         * an earlier row means the statement repeats a value; the row itself, that a stored row
         * (or an orphan) has it.
         */
        void lock() {
            Map<Integer, List<byte[]>> perShard = new LinkedHashMap<>();
            Map<Integer, List<int[]>> which = new LinkedHashMap<>();
            for (int x = 0; x < n; x++) {
                for (int r = 0; r < u.rows; r++) {
                    if (lookupShard[x][r] < 0 || claimed[x][r]) {
                        continue;
                    }
                    UniqueSql s = new UniqueSql(u, "SELECT ").add(UniqueIndex.KEY_COLUMN).add(", CASE");
                    for (int i = 0; i <= r; i++) {
                        if (lookupShard[x][i] == lookupShard[x][r]) {
                            s.add(" WHEN ").eq(x, i, null).add(" THEN ").add(Integer.toString(i));
                        }
                    }
                    s.add(" END FROM ").add(u.indexes.get(x).qualifiedLookup()).add(" WHERE ").eq(x, r, null)
                            .add(" FOR UPDATE");
                    add(perShard, which, lookupShard[x][r], s, x, r);
                }
            }
            statement.round(legs(perShard), results -> {
                Map<Integer, List<Integer>> suspects = new LinkedHashMap<>();
                ShardMap map = session.runtime().shardMaps().current();
                for (LegResult leg : results) {
                    List<int[]> rows = which.get(leg.shard);
                    int offset = leg.rowsEach.size() - rows.size();
                    int from = offset == 0 ? 0 : leg.rowsEach.get(offset - 1);
                    for (int i = 0; i < rows.size(); i++) {
                        int x = rows.get(i)[0];
                        int r = rows.get(i)[1];
                        int to = leg.rowsEach.get(offset + i);
                        if (to == from) {
                            // The value was there at the claim and is gone: lookup rows are never
                            // deleted while their table stands, so this cannot be told apart from damage.
                            statement.fail(new ErrPacket(1105, "HY000", "the lookup row of " + u.shown(x, r)
                                    + " for the unique key " + u.indexes.get(x).name() + " vanished; retry the statement"));
                            return;
                        }
                        var row = leg.rows.get(from);
                        int first = Integer.parseInt(row.string(1));
                        if (first < r) {
                            repeats[x][r] = first;
                        } else if (!sameKey(row.string(0), r)) {
                            otherKey[x][r] = row.string(0);
                            int shard = shardOfKeyText(otherKey[x][r], map);
                            if (shard >= 0) {
                                suspects.computeIfAbsent(shard, k -> new ArrayList<>()).add(x * u.rows + r);
                            }
                        }
                        from = to;
                    }
                }
                verify(suspects);
            });
        }

        /** Step 3: whether a row really holds each value a lookup row of another key names. */
        void verify(Map<Integer, List<Integer>> suspects) {
            Map<Integer, List<byte[]>> perShard = new LinkedHashMap<>();
            for (Map.Entry<Integer, List<Integer>> e : suspects.entrySet()) {
                UniqueSql s = new UniqueSql(u, "SELECT CASE");
                for (int xr : e.getValue()) {
                    s.add(" WHEN ").eq(xr / u.rows, xr % u.rows, null).add(" THEN ").add(Integer.toString(xr));
                }
                s.add(" END FROM ").add(table()).add(" WHERE ");
                boolean first = true;
                for (int xr : e.getValue()) {
                    s.add(first ? "" : " OR ").eq(xr / u.rows, xr % u.rows, null);
                    first = false;
                }
                s.add(" FOR UPDATE");
                // Through Cleave's procedure too: an account that may insert but not read the table
                // learns no more than one server tells it (1062), and gets no 1142 for SELECT.
                perShard.put(e.getKey(), List.of(lookup(s)));
            }
            statement.round(legs(perShard), results -> {
                for (LegResult leg : results) {
                    for (var row : leg.rows) {
                        int xr = Integer.parseInt(row.string(0));
                        heldOn[xr / u.rows][xr % u.rows] = leg.shard;
                    }
                }
                decide();
            });
        }

        /** What happens to each row, from what the lookups and the verification found. */
        void decide() {
            List<UniqueSql> lookupFixes = new ArrayList<>();
            List<Integer> lookupFixShards = new ArrayList<>();
            List<Integer> deletesOn = new ArrayList<>();
            boolean[] skip = new boolean[u.rows];
            int[] target = base.shardOfRow().clone();
            List<UniqueSql> holderDeletes = new ArrayList<>();
            for (int r = 0; r < u.rows; r++) {
                for (int x = 0; x < n; x++) {
                    if (lookupShard[x][r] < 0 || claimed[x][r]) {
                        continue;
                    }
                    UniqueIndex index = u.indexes.get(x);
                    int holderShard = heldOn[x][r];
                    int repeated = repeats[x][r];
                    if (repeated >= 0) {
                        if (!skip[repeated] && target[repeated] == target[r]) {
                            continue; // the rows meet on one shard, whose own unique index decides
                        }
                        if (conflicts.ignore() && !conflicts.updates()) {
                            skip[r] = true;
                            continue;
                        }
                        if (replace || conflicts.updates()) {
                            statement.fail(refusal("two rows of the statement with one value for the unique key "
                                    + index.name() + " go to different shards: not supported across shards"));
                            return;
                        }
                        statement.fail(duplicate(x, r));
                        return;
                    }
                    if (holderShard >= 0) {
                        if (conflicts.updates()) {
                            target[r] = holderShard;
                        } else if (replace) {
                            if (holderShard != target[r]) {
                                holderDeletes.add(new UniqueSql(u, "DELETE FROM ").add(table()).add(" WHERE ").eq(x, r, null));
                                deletesOn.add(holderShard);
                            }
                            lookupFixes.add(takeOver(x, r));
                            lookupFixShards.add(lookupShard[x][r]);
                        } else if (conflicts.ignore()) {
                            skip[r] = true;
                        } else {
                            statement.fail(duplicate(x, r));
                            return;
                        }
                    } else if (otherKey[x][r] != null) {
                        // An orphan: no row holds the value any more; this row takes it over.
                        lookupFixes.add(takeOver(x, r));
                        lookupFixShards.add(lookupShard[x][r]);
                    }
                }
            }
            Map<Integer, List<byte[]>> perShard = new LinkedHashMap<>();
            for (int i = 0; i < lookupFixes.size(); i++) {
                perShard.computeIfAbsent(lookupFixShards.get(i), k -> new ArrayList<>()).add(lookup(lookupFixes.get(i)));
            }
            for (int i = 0; i < holderDeletes.size(); i++) {
                perShard.computeIfAbsent(deletesOn.get(i), k -> new ArrayList<>()).add(holderDeletes.get(i).bytes());
            }
            statement.round(legs(perShard), results -> {
                long deleted = 0;
                for (LegResult leg : results) {
                    List<byte[]> sent = perShard.get(leg.shard);
                    int offset = leg.affectedEach.size() - sent.size();
                    for (int i = 0; i < sent.size(); i++) {
                        if (new String(sent.get(i), 0, 6, StandardCharsets.US_ASCII).equals("DELETE")) {
                            deleted += leg.affectedEach.get(offset + i);
                        }
                    }
                }
                writeRows(skip, target, deleted);
            });
        }

        /** Step 4: the rows to their shards; the client gets one OK for the statement. */
        void writeRows(boolean[] skip, int[] target, long deleted) {
            Map<Integer, List<byte[]>> perShard = new LinkedHashMap<>();
            Map<Integer, ByteArrayOutputStream> texts = new LinkedHashMap<>();
            int skipped = 0;
            if (base.whole() != null) {
                perShard.put(target[0], List.of(base.whole()));
            }
            for (int r = 0; base.whole() == null && r < u.rows; r++) {
                if (skip[r]) {
                    skipped++;
                    continue;
                }
                ByteArrayOutputStream out = texts.get(target[r]);
                if (out == null) {
                    out = new ByteArrayOutputStream();
                    out.write(base.head(), 0, base.head().length);
                    out.write(' ');
                    texts.put(target[r], out);
                } else {
                    out.write(',');
                }
                out.write(base.rows()[r], 0, base.rows()[r].length);
            }
            for (Map.Entry<Integer, ByteArrayOutputStream> e : texts.entrySet()) {
                ByteArrayOutputStream out = e.getValue();
                out.write(' ');
                out.write(base.tail(), 0, base.tail().length);
                perShard.put(e.getKey(), List.of(out.toByteArray()));
            }
            int skippedRows = skipped;
            statement.round(legs(perShard), results -> {
                long affected = deleted;
                long insertId = 0;
                int warnings = skippedRows;
                for (LegResult leg : results) {
                    affected += leg.affectedRows;
                    warnings += leg.warnings;
                    if (insertId == 0) {
                        insertId = leg.lastInsertId;
                    }
                }
                long id = base.firstGeneratedId() > 0 ? base.firstGeneratedId() : insertId;
                long affectedRows = affected;
                int warningCount = warnings;
                statement.succeed(() -> {
                    if (id != 0) {
                        session.lastInsertId(id);
                    }
                    command.ok(OkPacket.of(affectedRows, id, session.status(), warningCount));
                });
            });
        }

        /** The write this statement is, checked on the table before its claims (null on MySQL shards). */
        private byte[] writeCheck() {
            LookupCalls.Write write = base.whole() != null ? LookupCalls.Write.UPDATE
                    : replace ? LookupCalls.Write.REPLACE
                    : conflicts.updates() ? LookupCalls.Write.UPSERT : LookupCalls.Write.INSERT;
            List<String> columns = new ArrayList<>();
            for (UniqueIndex index : u.indexes) {
                for (String c : index.columns()) {
                    if (!columns.contains(c)) {
                        columns.add(c);
                    }
                }
            }
            return session.lookupCalls().writeCheck(write, base.schema(), base.table(), columns,
                    conflicts.onDuplicateUpdates());
        }

        /** Adds lookup statement {@code s}, about row {@code r}'s value of key {@code x}, to {@code shard}'s leg. */
        private void add(Map<Integer, List<byte[]>> perShard, Map<Integer, List<int[]>> which, int shard, UniqueSql s, int x,
                         int r) {
            perShard.computeIfAbsent(shard, k -> new ArrayList<>()).add(lookup(s));
            which.computeIfAbsent(shard, k -> new ArrayList<>()).add(new int[]{x, r});
        }

        /** A statement on a lookup table, or the proxy's check of a value on a table, as the client's connection runs it ({@link LookupCalls}). */
        private byte[] lookup(UniqueSql s) {
            return session.lookupCalls().call(s.bytes());
        }

        private UniqueSql takeOver(int x, int r) {
            return new UniqueSql(u, "UPDATE ").add(u.indexes.get(x).qualifiedLookup()).add(" SET ")
                    .add(UniqueIndex.KEY_COLUMN).add(" = ").add(u.keySql[r]).add(" WHERE ").eq(x, r, null);
        }

        private ErrPacket duplicate(int x, int r) {
            return new ErrPacket(1062, "23000", "Duplicate entry '" + u.shown(x, r) + "' for key '"
                    + u.indexes.get(x).name() + "'");
        }

        private ErrPacket refusal(String message) {
            return new ErrPacket(1235, "42000", message);
        }

        /** Whether the lookup's key text names row {@code r}'s own key. */
        private boolean sameKey(String holder, int r) {
            ShardKey key = keyOfText(holder);
            return key != null && key.equals(u.key[r]);
        }

        private ShardKey keyOfText(String text) {
            if (text == null) {
                return null;
            }
            if (base.keyspace().function().keyType() == KeyType.INTEGER) {
                try {
                    return ShardKey.of(Long.parseLong(text.trim()));
                } catch (NumberFormatException e) {
                    return null;
                }
            }
            return ShardKey.ofString(text);
        }

        private int shardOfKeyText(String text, ShardMap map) {
            ShardKey key = keyOfText(text);
            return key == null ? -1 : session.runtime().resolver().shardOf(base.keyspace(), key, map);
        }

        private String table() {
            return "`" + base.schema().replace("`", "``") + "`.`" + base.table().replace("`", "``") + "`";
        }

        private List<AtomicStatement.Leg> legs(Map<Integer, List<byte[]>> perShard) {
            List<AtomicStatement.Leg> legs = new ArrayList<>();
            perShard.forEach((shard, statements) -> legs.add(new AtomicStatement.Leg(shard, statements)));
            return legs;
        }
    }
}
