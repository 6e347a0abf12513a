package io.cleave.e2e.routing;

import io.cleave.e2e.support.RunningDaemon;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.plan.TargetResolver;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Looks at the shards directly, past the proxy: every row of a sharded table is on the shard its
 * key maps to, an unsharded table's rows are on its home shard only, and every shard holds the
 * same copy of a reference table.
 */
final class Placement {

    private final RunningDaemon daemon;
    private final String schema;
    private final Topology topology;
    private final ShardMap map;
    private final TargetResolver resolver;

    Placement(RunningDaemon daemon, String schema) {
        this.daemon = daemon;
        this.schema = schema;
        this.topology = daemon.daemon().config().sharding().topology();
        this.map = daemon.daemon().shardMaps().current();
        this.resolver = new TargetResolver(topology);
    }

    /** Rows on the wrong shard, unsharded rows off their home, for every table the topology names. */
    List<String> check() throws SQLException {
        List<String> problems = new ArrayList<>();
        for (TableRule rule : topology.tables().values()) {
            for (int shard = 0; shard < topology.shardCount(); shard++) {
                try (Connection c = daemon.connect(shard); Statement s = c.createStatement()) {
                    if (rule instanceof TableRule.Sharded sharded) {
                        try (ResultSet rs = s.executeQuery("SELECT " + sharded.column() + " FROM " + schema + "."
                                + rule.table())) {
                            boolean strings = topology.keyspace(sharded.keyspace()).function().keyType() == KeyType.STRING;
                            while (rs.next()) {
                                String key = rs.getString(1);
                                int home = resolver.shardOf(sharded.keyspace(),
                                        strings ? ShardKey.ofString(key) : ShardKey.of(Long.parseLong(key)), map);
                                if (home != shard) {
                                    problems.add(rule.table() + " row with " + sharded.column() + " = " + key
                                            + " is on shard " + shard + " but belongs on shard " + home);
                                }
                            }
                        }
                    } else if (rule instanceof TableRule.Unsharded unsharded && shard != unsharded.homeShard()) {
                        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + schema + "." + rule.table())) {
                            rs.next();
                            if (rs.getLong(1) != 0) {
                                problems.add("unsharded table " + rule.table() + " (home shard " + unsharded.homeShard()
                                        + ") has " + rs.getLong(1) + " rows on shard " + shard);
                            }
                        }
                    }
                }
            }
        }
        return problems;
    }

    /**
     * Each shard's copy of a reference table against the plain server's table. A write to a
     * reference table commits on every shard in two phases and is acknowledged at its decision:
     * the other shards' branch commits may still be running for a moment (statements through the
     * proxy wait for them; these direct reads do not), so a difference is looked at again until
     * it has lasted 10 s.
     */
    List<String> checkReferenceCopies(String table, Connection plain) throws SQLException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        List<String> problems = referenceCopiesDiffering(table, plain);
        while (!problems.isEmpty() && System.nanoTime() < deadline) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            problems = referenceCopiesDiffering(table, plain);
        }
        return problems;
    }

    private List<String> referenceCopiesDiffering(String table, Connection plain) throws SQLException {
        List<String> problems = new ArrayList<>();
        String sql = "SELECT * FROM " + schema + "." + table;
        Outcome expected = Outcome.run(plain, sql);
        for (int shard = 0; shard < topology.shardCount(); shard++) {
            try (Connection c = daemon.connect(shard)) {
                if (!Outcome.sameRows(expected, Outcome.run(c, sql))) {
                    problems.add("shard " + shard + "'s copy of the reference table " + table + " differs");
                }
            }
        }
        return problems;
    }
}
