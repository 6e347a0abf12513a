package io.cleave.proxy.frontend;

import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.unique.UniqueIndexes;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.sql.ast.Ddl;
import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.ast.StatementKind;
import io.cleave.router.sql.ast.TableName;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.parse.SqlParser;
import io.cleave.router.topology.TableRule;
import io.cleave.router.unique.GlobalKeyAlter;
import io.cleave.router.unique.LookupTable;
import io.cleave.router.unique.UniqueIndex;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Structure changes that declare or drop global unique keys. A CREATE TABLE of a sharded table
 * declares every unique key that leaves out the sharding column, once every shard created the
 * table: the key's columns and types are read back from the default shard, its lookup table is
 * created on every shard, and the key goes into {@code cleave.unique_keys} and the proxy's
 * {@link UniqueIndexes}. CREATE UNIQUE INDEX and ALTER TABLE ... ADD UNIQUE | PRIMARY KEY of such a
 * key build its lookup from the rows ({@link UniqueBuild}). DROP TABLE, DROP DATABASE, DROP INDEX
 * and ALTER TABLE drop the lookups of keys that are gone; TRUNCATE empties them. RENAME of a table
 * with such keys is refused (its lookups are named after it). A key the proxy cannot keep (a
 * prefix of a column, an expression) stays enforced per shard only, with a warning that says so.
 */
final class UniqueDdl {

    private static final Set<StatementKind> KINDS = Set.of(StatementKind.CREATE_TABLE, StatementKind.DROP_TABLE,
            StatementKind.DROP_DATABASE, StatementKind.ALTER_TABLE, StatementKind.DROP_INDEX, StatementKind.TRUNCATE_TABLE,
            StatementKind.RENAME_TABLE, StatementKind.CREATE_INDEX);

    private final Session session;
    private final Ddl ddl;
    private final String currentSchema;
    /** The global unique key the statement adds, or null. */
    private final Addition addition;
    /** The lookup the statement's added key builds from the table's rows, once prepared ({@link #before}). */
    private UniqueBuild build;

    private UniqueDdl(Session session, Ddl ddl, Addition addition) {
        this.session = session;
        this.ddl = ddl;
        this.addition = addition;
        this.currentSchema = session.settings().schema();
    }

    /** The statement's part in global unique keys, or null when it has none. */
    static UniqueDdl of(Session session, StatementKind kind, byte[] sql) {
        if (!KINDS.contains(kind)) {
            return null;
        }
        Statement statement;
        TokenBuffer tokens = new TokenBuffer();
        try {
            statement = SqlParser.parse(sql, session.sqlMode(), tokens);
        } catch (RuntimeException e) {
            return null;
        }
        if (!(statement instanceof Ddl d)) {
            return null;
        }
        if (d instanceof Ddl.AlterTable at
                && session.runtime().topology().ruleFor(at.table().name()) instanceof TableRule.Sharded s) {
            GlobalKeyAlter alter = GlobalKeyAlter.of(at, s.column(), tokens);
            if (alter != null && alter.refusal() == null) {
                return new UniqueDdl(session, d, new Addition(at.table(), alter.key(), alter.added(), s));
            }
        }
        if (d instanceof Ddl.CreateTable ct && (ct.temporary()
                || !(session.runtime().topology().ruleFor(ct.table().name()) instanceof TableRule.Sharded))) {
            return null;
        }
        if (d instanceof Ddl.CreateIndex ci) {
            TableRule.Sharded sharded = globalKey(session, ci);
            if (sharded == null) {
                return null;
            }
            Ddl.KeyDef key = new Ddl.KeyDef(ci.span(), Ddl.KeyType.UNIQUE, ci.name().value(), ci.columns(), List.of());
            return new UniqueDdl(session, d, new Addition(ci.table(), key, List.of(key), sharded));
        }
        if (!(d instanceof Ddl.CreateTable) && !(d instanceof Ddl.Database) && session.runtime().uniqueIndexes().isEmpty()) {
            return null;
        }
        return new UniqueDdl(session, d, null);
    }

    /**
     * A global unique key the statement adds to a table of a sharded rule (CREATE UNIQUE INDEX, or
     * ALTER TABLE ... ADD UNIQUE | PRIMARY KEY), with every index the statement adds (the key among
     * them), all dropped again should the key not be built.
     */
    private record Addition(TableName table, Ddl.KeyDef key, List<Ddl.KeyDef> added, TableRule.Sharded rule) {
    }

    /**
     * Why the statement may not run, or null: it would change the global unique keys while another proxy serving
     * these shards cannot learn it, or it renames a table whose lookups are named after it.
     */
    String refusal() {
        String changing = changesKeys();
        if (changing != null) {
            String refused = session.runtime().uniqueIndexes().changeRefusal(changing);
            if (refused != null) {
                return refused;
            }
        }
        boolean renames = ddl instanceof Ddl.RenameTable || ddl instanceof Ddl.AlterTable at && at.renameTo() != null;
        if (!renames) {
            return null;
        }
        for (TableName t : ddl instanceof Ddl.RenameTable rt ? rt.from() : ddl.tables()) {
            List<UniqueIndex> keys = indexes(t);
            if (!keys.isEmpty()) {
                return "renaming " + t.name() + " is not supported while it has global unique keys (" + keys.get(0).name()
                        + "): their lookup tables are named after it";
            }
        }
        return null;
    }

    /**
     * What the statement changes of the global unique keys, or null when nothing: a sharded table created with a key
     * (or one copied, LIKE or AS, whose keys are not known before), a key added, or tables or a database dropped,
     * altered or renamed that have keys. TRUNCATE only empties lookups.
     */
    private String changesKeys() {
        if (addition != null) {
            return "a global unique key's build";
        }
        if (ddl instanceof Ddl.CreateTable ct) {
            String column = ((TableRule.Sharded) session.runtime().topology().ruleFor(ct.table().name())).column();
            boolean declares = ct.like() != null || ct.asQuery() != null
                    || ct.columns().stream().anyMatch(c -> (c.unique() || c.primaryKey()) && !c.name().value().equalsIgnoreCase(column))
                    || ct.keys().stream().anyMatch(k -> (k.type() == Ddl.KeyType.UNIQUE || k.type() == Ddl.KeyType.PRIMARY)
                    && k.columns().stream().noneMatch(column::equalsIgnoreCase));
            return declares ? "a sharded table created with a global unique key" : null;
        }
        if (ddl instanceof Ddl.TruncateTable || ddl instanceof Ddl.CreateIndex) {
            return null;
        }
        if (ddl instanceof Ddl.Database db) {
            String schema = db.name().value();
            return db.kind() == StatementKind.DROP_DATABASE && session.runtime().uniqueIndexes().all().stream()
                    .anyMatch(i -> i.schema().equalsIgnoreCase(schema)) ? "a database with global unique keys dropped" : null;
        }
        List<TableName> tables = ddl instanceof Ddl.RenameTable rt ? rt.from() : ddl.tables();
        return tables.stream().anyMatch(t -> !indexes(t).isEmpty()) ? "a change of a table with global unique keys" : null;
    }

    /** The table's rule when {@code ci} adds a unique key of columns without its sharding column, else null. */
    private static TableRule.Sharded globalKey(Session session, Ddl.CreateIndex ci) {
        if (ci.type() != Ddl.KeyType.UNIQUE || !ci.expressions().isEmpty()
                || !(session.runtime().topology().ruleFor(ci.table().name()) instanceof TableRule.Sharded s)) {
            return null;
        }
        return ci.columns().stream().anyMatch(c -> c.equalsIgnoreCase(s.column())) ? null : s;
    }

    /**
     * Before the shards run the statement: a statement adding a global key prepares its lookup's
     * build ({@link UniqueBuild}); then {@code send} runs, or the statement is refused.
     */
    void before(Command command, Runnable send) {
        String schema = addition == null ? null : schemaOf(addition.table());
        if (schema == null) {
            send.run();
            return;
        }
        String table = addition.table().name();
        Ddl.KeyDef key = addition.key();
        readKeys(schema, table, (keys, indexNames, types) -> {
            String[] keyType = types.get(addition.rule().column().toLowerCase(Locale.ROOT));
            List<String[]> columnTypes = new ArrayList<>();
            List<KeyType> kinds = new ArrayList<>();
            for (String c : key.columns()) {
                String[] type = types.get(c.toLowerCase(Locale.ROOT));
                if (type == null) {
                    send.run(); // the shards name the missing column
                    return;
                }
                columnTypes.add(type);
                kinds.add(LookupTable.placement(type[1], type[3]));
            }
            if (keyType == null || key.name() != null && indexNames.contains(key.name().toLowerCase(Locale.ROOT))) {
                send.run(); // the shards name what is wrong (a key of that name exists), or skip it (IF NOT EXISTS)
                return;
            }
            // Named as the server will name them; an index whose name is taken is never dropped by an undo.
            Set<String> taken = new HashSet<>(indexNames);
            String name = null;
            List<String> added = new ArrayList<>();
            for (Ddl.KeyDef k : addition.added()) {
                if (k.name() != null && taken.contains(k.name().toLowerCase(Locale.ROOT))) {
                    continue;
                }
                String n = GlobalKeyAlter.serverName(k, taken);
                added.add(n);
                name = k == key ? n : name;
            }
            List<String> primaryKey = new ArrayList<>();
            keys.getOrDefault("PRIMARY", List.of()).forEach(c -> primaryKey.add(c[0]));
            if (key.type() == Ddl.KeyType.PRIMARY) {
                // Once the shards added it, the rows are read in its order.
                primaryKey.addAll(key.columns());
            }
            if (primaryKey.isEmpty()) {
                command.refuse("adding the unique key " + name + " to " + table + " needs the table to have a primary"
                        + " key: its lookup is built by reading the rows in key order");
                return;
            }
            Map<String, String> dataTypes = new LinkedHashMap<>();
            types.forEach((c, t) -> dataTypes.put(c, t[1].toLowerCase(Locale.ROOT)));
            UniqueIndex index = new UniqueIndex(schema, table, name, key.columns(), kinds, addition.rule().column(),
                    UniqueIndex.lookupName(schema, table, name), session.runtime().shardMaps().current().shardCount());
            UniqueBuild.prepare(session, index, columnTypes, primaryKey, added, dataTypes, keyType, prepared -> {
                build = prepared;
                send.run();
            }, command::error);
        }, send);
    }

    /**
     * Some shards did not run the statement: a build prepared for it is undone (the index dropped
     * where it was added, as one server leaves nothing of a failed CREATE INDEX) and {@code error}
     * answers; otherwise {@code answer} runs.
     */
    void failed(Command command, ErrPacket error, Runnable answer) {
        if (build != null) {
            build.abandon(() -> command.error(error));
        } else {
            answer.run();
        }
    }

    /** After every shard ran the statement: keeps the lookups in step, then {@code answer} runs. */
    void after(Command command, Runnable answer) {
        if (build != null) {
            UniqueIndex index = build.index();
            readKeys(index.schema(), index.table(), (keys, indexNames, types) -> {
                List<String[]> now = null;
                for (Map.Entry<String, List<String[]>> e : keys.entrySet()) {
                    now = e.getKey().equalsIgnoreCase(index.name()) ? e.getValue() : now;
                }
                if (now == null || !lowerCase(now.stream().map(c -> c[0]).toList()).equals(lowerCase(index.columns()))) {
                    // Not where it was expected (named otherwise): undone rather than left unenforced.
                    build.abandon(() -> command.error(1105, "HY000", "the shards did not add the unique key "
                            + index.name() + " (" + String.join(", ", index.columns()) + ") as expected, so its lookup"
                            + " could not be built; the statement's indexes were dropped again"));
                    return;
                }
                if (now.stream().anyMatch(c -> !c[1].isEmpty())) {
                    session.connections().proxyWarnings(List.of("The unique key " + index.name() + " of " + index.table()
                            + " indexes a prefix of a column: it is enforced by each shard for its own rows only"));
                    build.release(answer);
                    return;
                }
                build.run(error -> {
                    if (error == null) {
                        answer.run();
                    } else {
                        command.error(error);
                    }
                });
            }, () -> build.abandon(() -> command.error(1105, "HY000", "the lookup of the unique key " + index.name()
                    + " could not be built: shard " + session.runtime().topology().defaultShard() + " did not answer;"
                    + " the index was dropped again")));
            return;
        }
        if (ddl instanceof Ddl.CreateIndex) {
            answer.run();
            return;
        }
        if (ddl instanceof Ddl.CreateTable ct) {
            declare(command, schemaOf(ct.table()), ct.table().name(), answer);
        } else if (ddl instanceof Ddl.Database db) {
            String prefix = db.name().value().toLowerCase(Locale.ROOT);
            List<UniqueIndex> gone = new ArrayList<>();
            for (UniqueIndex i : session.runtime().uniqueIndexes().all()) {
                if (i.schema().toLowerCase(Locale.ROOT).equals(prefix)) {
                    gone.add(i);
                }
            }
            drop(gone, answer);
        } else if (ddl instanceof Ddl.DropTable) {
            List<UniqueIndex> gone = new ArrayList<>();
            for (TableName t : ddl.tables()) {
                gone.addAll(indexes(t));
            }
            drop(gone, answer);
        } else if (ddl instanceof Ddl.TruncateTable tt) {
            truncate(indexes(tt.table()), answer);
        } else if (ddl instanceof Ddl.AlterTable || ddl instanceof Ddl.DropIndex) {
            TableName t = ddl.tables().get(0);
            List<UniqueIndex> keys = indexes(t);
            if (keys.isEmpty()) {
                answer.run();
            } else {
                reconcile(schemaOf(t), t.name(), keys, answer);
            }
        } else {
            answer.run();
        }
    }

    private List<UniqueIndex> indexes(TableName t) {
        String schema = schemaOf(t);
        return schema == null ? List.of() : session.runtime().uniqueIndexes().of(schema, t.name());
    }

    private String schemaOf(TableName t) {
        return t.schema() != null ? t.schema() : currentSchema;
    }

    /** What {@link #readKeys} read of a table. */
    private interface KeysRead {
        /**
         * @param unique     unique key name to its columns, each {name, prefix length or ""}
         * @param indexNames every index's name, lower case
         * @param types      lower-case column name to {COLUMN_TYPE, DATA_TYPE, charset, collation}
         */
        void read(Map<String, List<String[]>> unique, Set<String> indexNames, Map<String, String[]> types);
    }

    /** The table's indexes and column types, read back from the default shard. */
    private void readKeys(String schema, String table, KeysRead then, Runnable failed) {
        String where = " WHERE TABLE_SCHEMA = " + SqlLiterals.string(schema) + " AND TABLE_NAME = " + SqlLiterals.string(table);
        String keys = "SELECT INDEX_NAME, COLUMN_NAME, IFNULL(SUB_PART, ''), NON_UNIQUE FROM"
                + " information_schema.STATISTICS" + where + " ORDER BY INDEX_NAME, SEQ_IN_INDEX";
        String columns = "SELECT COLUMN_NAME, COLUMN_TYPE, DATA_TYPE, IFNULL(CHARACTER_SET_NAME, ''),"
                + " IFNULL(COLLATION_NAME, '') FROM information_schema.COLUMNS" + where;
        new MultiExchange(new SystemContext(session.loop()), false, results -> {
            LegResult r = results.get(0);
            if (!r.ok()) {
                failed.run();
                return;
            }
            int split = r.rowsEach.get(0);
            Map<String, List<String[]>> byKey = new LinkedHashMap<>();
            Set<String> indexNames = new HashSet<>();
            for (int i = 0; i < split; i++) {
                var row = r.rows.get(i);
                indexNames.add(row.string(0).toLowerCase(Locale.ROOT));
                if ("0".equals(row.string(3))) {
                    byKey.computeIfAbsent(row.string(0), k -> new ArrayList<>())
                            .add(new String[]{row.string(1), row.string(2)});
                }
            }
            Map<String, String[]> types = new LinkedHashMap<>();
            for (int i = split; i < r.rows.size(); i++) {
                var row = r.rows.get(i);
                types.put(row.string(0).toLowerCase(Locale.ROOT),
                        new String[]{row.string(1), row.string(2), row.string(3), row.string(4)});
            }
            then.read(byKey, indexNames, types);
        }).leg(session.runtime().topology().defaultShard(), List.of(bytes(keys), bytes(columns))).start();
    }

    private void declare(Command command, String schema, String table, Runnable answer) {
        if (schema == null || !(session.runtime().topology().ruleFor(table) instanceof TableRule.Sharded sharded)) {
            answer.run();
            return;
        }
        readKeys(schema, table, (keys, indexNames, types) -> {
            List<UniqueIndex> declared = new ArrayList<>();
            List<String> warnings = new ArrayList<>();
            int shards = session.runtime().shardMaps().current().shardCount();
            String[] keyType = types.get(sharded.column().toLowerCase(Locale.ROOT));
            for (Map.Entry<String, List<String[]>> e : keys.entrySet()) {
                List<String> columns = new ArrayList<>();
                boolean prefix = false;
                for (String[] c : e.getValue()) {
                    columns.add(c[0]);
                    prefix |= !c[1].isEmpty();
                }
                if (columns.stream().anyMatch(c -> c.equalsIgnoreCase(sharded.column()))) {
                    continue;
                }
                if (prefix || keyType == null) {
                    warnings.add("The unique key " + e.getKey() + " (" + String.join(", ", columns) + ") of " + table
                            + " indexes a prefix of a column: it is enforced by each shard for its own rows only");
                    continue;
                }
                List<KeyType> kinds = new ArrayList<>();
                for (String c : columns) {
                    String[] type = types.get(c.toLowerCase(Locale.ROOT));
                    kinds.add(LookupTable.placement(type[1], type[3]));
                }
                declared.add(new UniqueIndex(schema, table, e.getKey(), columns, kinds, sharded.column(),
                        UniqueIndex.lookupName(schema, table, e.getKey()), shards));
            }
            session.connections().proxyWarnings(warnings);
            if (declared.isEmpty()) {
                answer.run();
                return;
            }
            List<byte[]> ddls = new ArrayList<>();
            for (UniqueIndex index : declared) {
                List<String[]> columnTypes = new ArrayList<>();
                index.columns().forEach(c -> columnTypes.add(types.get(c.toLowerCase(Locale.ROOT))));
                ddls.add(bytes("DROP TABLE IF EXISTS " + index.qualifiedLookup()));
                ddls.add(bytes(LookupTable.create(index, columnTypes, keyType)));
            }
            MultiExchange create = new MultiExchange(new SystemContext(session.loop()), false, created -> {
                for (LegResult r : created) {
                    if (!r.ok()) {
                        failDeclaring(command, declared, r.errorPacket());
                        return;
                    }
                }
                StringBuilder catalog = new StringBuilder("REPLACE INTO cleave.unique_keys VALUES ");
                for (int i = 0; i < declared.size(); i++) {
                    catalog.append(i == 0 ? "" : ", ").append(UniqueIndexes.catalogValues(declared.get(i), SqlLiterals::string));
                }
                new MultiExchange(new SystemContext(session.loop()), false, stored -> {
                    if (!stored.get(0).ok()) {
                        failDeclaring(command, declared, stored.get(0).errorPacket());
                        return;
                    }
                    declared.forEach(session.runtime().uniqueIndexes()::add);
                    answer.run();
                }).leg(session.runtime().topology().defaultShard(), bytes(catalog.toString())).start();
            });
            for (int s = 0; s < shards; s++) {
                create.leg(s, ddls);
            }
            create.start();
        }, () -> answer.run());
    }

    private void failDeclaring(Command command, List<UniqueIndex> keys, ErrPacket error) {
        command.error(error.errorCode(), error.sqlState(), "the table was created, but the lookup of its unique key "
                + keys.get(0).name() + " could not be: " + error.message() + " (drop the table and create it again)");
    }

    /** Drops the lookups and catalog rows of keys that are gone. */
    private void drop(List<UniqueIndex> gone, Runnable answer) {
        if (gone.isEmpty()) {
            answer.run();
            return;
        }
        gone.forEach(session.runtime().uniqueIndexes()::remove);
        List<byte[]> drops = new ArrayList<>();
        StringBuilder where = new StringBuilder(" WHERE ");
        for (int i = 0; i < gone.size(); i++) {
            UniqueIndex index = gone.get(i);
            drops.add(bytes("DROP TABLE IF EXISTS " + index.qualifiedLookup()));
            where.append(i == 0 ? "" : " OR ").append("(schema_name = ").append(SqlLiterals.string(index.schema()))
                    .append(" AND table_name = ").append(SqlLiterals.string(index.table())).append(" AND key_name = ")
                    .append(SqlLiterals.string(index.name())).append(')');
        }
        int home = session.runtime().topology().defaultShard();
        MultiExchange multi = new MultiExchange(new SystemContext(session.loop()), false, results -> answer.run());
        for (int s = 0; s < lookupShards(gone); s++) {
            List<byte[]> statements = new ArrayList<>(drops);
            if (s == home) {
                // A key whose build was interrupted is listed among the builds too.
                statements.add(0, bytes("DELETE FROM cleave.unique_key_builds" + where));
                statements.add(0, bytes("DELETE FROM cleave.unique_keys" + where));
            }
            multi.leg(s, statements);
        }
        multi.start();
    }

    private void truncate(List<UniqueIndex> keys, Runnable answer) {
        if (keys.isEmpty()) {
            answer.run();
            return;
        }
        List<byte[]> statements = new ArrayList<>();
        for (UniqueIndex index : keys) {
            statements.add(bytes("TRUNCATE TABLE " + index.qualifiedLookup()));
        }
        MultiExchange multi = new MultiExchange(new SystemContext(session.loop()), false, results -> answer.run());
        for (int s = 0; s < lookupShards(keys); s++) {
            multi.leg(s, statements);
        }
        multi.start();
    }

    /** After ALTER TABLE or DROP INDEX: the keys no longer on the table (by name and columns) lose their lookups. */
    private void reconcile(String schema, String table, List<UniqueIndex> registered, Runnable answer) {
        readKeys(schema, table, (keys, indexNames, types) -> {
            List<UniqueIndex> gone = new ArrayList<>();
            for (UniqueIndex index : registered) {
                List<String[]> now = keys.get(index.name());
                List<String> columns = new ArrayList<>();
                if (now != null) {
                    now.forEach(c -> columns.add(c[0].toLowerCase(Locale.ROOT)));
                }
                if (!columns.equals(index.columns().stream().map(c -> c.toLowerCase(Locale.ROOT)).toList())) {
                    gone.add(index);
                }
            }
            drop(gone, answer);
        }, answer);
    }

    private int lookupShards(List<UniqueIndex> keys) {
        int n = session.runtime().shardMaps().current().shardCount();
        for (UniqueIndex k : keys) {
            n = Math.max(n, Math.min(k.lookupShards(), session.runtime().shardMaps().current().shardCount()));
        }
        return n;
    }

    private static List<String> lowerCase(List<String> names) {
        return names.stream().map(n -> n.toLowerCase(Locale.ROOT)).toList();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
