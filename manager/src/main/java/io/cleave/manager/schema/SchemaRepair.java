package io.cleave.manager.schema;

import io.cleave.proxy.server.SchemaDriftLog.UnfinishedChange;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code cleave repair}: makes the shards' schemas alike again without losing anything. First each
 * recorded change the shards did not all apply runs again on those that lack it (completing the
 * client's DROP, TRUNCATE or ALTER as one server would have); then each object some shards have
 * and others lack is created on those from the definition a shard has (the default shard's when
 * it has it). Nothing is dropped; objects every shard has but not alike are reported for an
 * operator, as are changes that fail again.
 */
public final class SchemaRepair {

    /** Opens an administrative connection to a shard. */
    public interface Shards {
        Connection open(int shard) throws SQLException;
    }

    /** What repair did and what it left. */
    public record Report(List<String> repaired, List<String> remaining) {
        public Report {
            repaired = List.copyOf(repaired);
            remaining = List.copyOf(remaining);
        }
    }

    private final Shards shards;
    private final List<Integer> shardIndexes;
    private final int defaultShard;
    private final DriftJournal journal;

    public SchemaRepair(Shards shards, List<Integer> shardIndexes, int defaultShard, DriftJournal journal) {
        this.shards = shards;
        this.shardIndexes = List.copyOf(shardIndexes);
        this.defaultShard = defaultShard;
        this.journal = journal;
    }

    /** The shards' catalogs, by shard. */
    public Map<Integer, Map<String, String>> catalogs() throws SQLException {
        try (Links links = new Links()) {
            return catalogs(links);
        }
    }

    private Map<Integer, Map<String, String>> catalogs(Links links) throws SQLException {
        Map<Integer, Map<String, String>> out = new TreeMap<>();
        for (int shard : shardIndexes) {
            out.put(shard, ShardCatalog.read(links.to(shard)));
        }
        return out;
    }

    /** One connection per shard for a whole repair, opened when first needed (each connect is a chance to fail). */
    private final class Links implements AutoCloseable {
        private final Map<Integer, Connection> open = new TreeMap<>();

        Connection to(int shard) throws SQLException {
            Connection c = open.get(shard);
            if (c == null) {
                c = shards.open(shard);
                open.put(shard, c);
            }
            return c;
        }

        @Override
        public void close() throws SQLException {
            for (Connection c : open.values()) {
                c.close();
            }
        }
    }

    public synchronized Report run() throws SQLException {
        try (Links links = new Links()) {
            return run(links);
        }
    }

    private Report run(Links links) throws SQLException {
        List<String> repaired = new ArrayList<>();
        List<String> remaining = new ArrayList<>();
        rollForward(links, repaired, remaining);
        // What a change still to be completed names is left as it is: creating it again would undo the client's DROP.
        PendingChanges pending = new PendingChanges(journal.load());
        // Objects may depend on each other (a view on a table, a foreign key): passes until none is left or none helps.
        for (int pass = 0; pass < 5; pass++) {
            List<String> failures = new ArrayList<>();
            int created = createMissing(links, repaired, failures, pending);
            if (failures.isEmpty() || created == 0) {
                remaining.addAll(failures);
                break;
            }
        }
        for (SchemaDrift.Difference d : SchemaDrift.between(catalogs(links))) {
            if (d.missingOn().isEmpty()) {
                remaining.add(d + " (every shard has it, not alike: make them alike by hand, e.g. with the same ALTER)");
            }
        }
        return new Report(repaired, remaining);
    }

    /** Runs each recorded change again where it failed; keeps those that fail again. */
    private void rollForward(Links links, List<String> repaired, List<String> remaining) throws SQLException {
        List<UnfinishedChange> left = new ArrayList<>();
        for (UnfinishedChange change : journal.load()) {
            List<Integer> stillFailed = new ArrayList<>();
            List<Integer> applied = new ArrayList<>(change.applied());
            for (int shard : change.failed()) {
                try (Statement s = links.to(shard).createStatement()) {
                    if (change.schema() != null) {
                        s.execute("USE `" + change.schema().replace("`", "``") + "`");
                    }
                    s.execute(change.statement());
                    applied.add(shard);
                    repaired.add("ran '" + change.statement() + "' on shard " + shard + ", which had refused it");
                } catch (SQLException e) {
                    stillFailed.add(shard);
                    remaining.add("'" + change.statement() + "' fails again on shard " + shard + ": " + e.getMessage());
                }
            }
            if (!stillFailed.isEmpty()) {
                left.add(new UnfinishedChange(change.schema(), change.statement(), applied, stillFailed, change.error()));
            }
        }
        journal.save(left);
    }

    /** Creates objects some shards lack from a shard that has them; returns how many it created. */
    private int createMissing(Links links, List<String> repaired, List<String> failures, PendingChanges pending)
            throws SQLException {
        int created = 0;
        for (SchemaDrift.Difference d : SchemaDrift.between(catalogs(links))) {
            if (d.missingOn().isEmpty() || pending.names(d.object())) {
                continue;
            }
            int source = d.presentOn().contains(defaultShard) ? defaultShard : d.presentOn().get(0);
            String[] kindAndName = d.object().split(" ", 2);
            Definition definition = definition(links.to(source), kindAndName[0], kindAndName[1]);
            for (int shard : d.missingOn()) {
                try (Statement s = links.to(shard).createStatement()) {
                    if (definition.schema() != null) {
                        s.execute("USE `" + definition.schema().replace("`", "``") + "`");
                    }
                    s.execute(definition.statement());
                    created++;
                    repaired.add("created " + d.object() + " on shard " + shard + " as shard " + source + " has it");
                } catch (SQLException e) {
                    failures.add(d.object() + ": creating it on shard " + shard + " as shard " + source + " has it"
                            + " failed: " + e.getMessage());
                }
            }
        }
        return created;
    }

    /** A statement that creates an object, and the schema it runs in (null: it names its own). */
    private record Definition(String schema, String statement) {
    }

    private static Definition definition(Connection c, String kind, String qualified) throws SQLException {
        int dot = qualified.indexOf('.');
        String schema = dot < 0 ? qualified : qualified.substring(0, dot);
        String name = dot < 0 ? null : qualified.substring(dot + 1);
        String q = name == null ? quote(schema) : quote(schema) + "." + quote(name);
        return switch (kind) {
            case "schema" -> new Definition(null, show(c, "SHOW CREATE DATABASE " + q, 2));
            case "table" -> new Definition(schema, show(c, "SHOW CREATE TABLE " + q, 2));
            case "view" -> new Definition(schema, show(c, "SHOW CREATE VIEW " + q, 2));
            case "sequence" -> new Definition(schema, show(c, "SHOW CREATE SEQUENCE " + q, 2));
            case "procedure" -> new Definition(schema, show(c, "SHOW CREATE PROCEDURE " + q, 3));
            case "function" -> new Definition(schema, show(c, "SHOW CREATE FUNCTION " + q, 3));
            case "trigger" -> new Definition(schema, show(c, "SHOW CREATE TRIGGER " + q, 3));
            default -> throw new SQLException("cannot create a " + kind);
        };
    }

    private static String show(Connection c, String sql, int column) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            if (!r.next()) {
                throw new SQLException(sql + " returned nothing");
            }
            return r.getString(column);
        }
    }

    private static String quote(String name) {
        return "`" + name.replace("`", "``") + "`";
    }
}
