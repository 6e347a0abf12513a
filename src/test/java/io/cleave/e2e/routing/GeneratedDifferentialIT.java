package io.cleave.e2e.routing;

import io.cleave.e2e.support.RunningDaemon;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Generated statements ({@link StatementGenerator}) run through the proxy over four shards and on
 * one plain MariaDB holding the same rows ({@link GeneratedSchema}); a wrong answer fails the test.
 * Reads compare their rows (in order only where the ORDER BY fixes it), writes their counts and
 * then the whole written table; a write the proxy refuses must leave its table as it was. A
 * refusal (1235) is not a failure: the rate per feature family is printed. Every fourth read runs
 * as a server prepared statement with its literals bound as parameters (on a second pair of
 * sessions that gets the same settings), so shards are also chosen from bound values and rows
 * merged in the binary protocol.
 *
 * <p>The same statements also run as an account with limited privileges (SELECT on some tables,
 * writes on fewer, nothing on one) on both sides: every statement must give the same answer or fail
 * with the same error, privilege errors included, as the proxy runs it with that account's
 * privileges on the shards (and evaluates on one shard with them).
 *
 * <p>{@code -Ddiff.count=N} runs N statements (default 3,000; as the limited account a third as
 * many), {@code -Ddiff.seed=S} another seed; a failure names the seed and the statement's number,
 * so the run can be replayed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GeneratedDifferentialIT {

    private static final String SCHEMA = "gen";
    private static final int MAX_REPORTED = 25;

    private ServerAndShards sides;
    private RunningDaemon sharded;

    @BeforeAll
    void start() {
        sides = ServerAndShards.start(4, GeneratedSchema.SHARDING_YAML, Map.of());
        sharded = sides.sharded();
    }

    @AfterAll
    void stop() {
        if (sides != null) {
            sides.close();
        }
    }

    /** Counts per feature family. */
    private static final class Tally {
        int statements;
        int compared;
        int refused;
        int bothFailed;
        final Map<String, Integer> reasons = new LinkedHashMap<>();
    }

    private static final String OPTIONS = "useServerPrepStmts=false&allowMultiQueries=true";
    private static final String PREPARED = "useServerPrepStmts=true&cachePrepStmts=false";

    /**
     * What the limited account may do, granted alike on the plain server and through the proxy:
     * read every table but the ledger, write orders and their items only.
     */
    private static final List<String> LIMITED_GRANTS = List.of(
            "CREATE USER IF NOT EXISTS 'limited'@'%' IDENTIFIED BY 'lpw'",
            "GRANT SELECT ON gen.customers TO 'limited'@'%'",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON gen.orders TO 'limited'@'%'",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON gen.order_items TO 'limited'@'%'",
            "GRANT SELECT ON gen.products TO 'limited'@'%'",
            "GRANT SELECT ON gen.regions TO 'limited'@'%'");

    @Test
    void proxyAnswersAsOneServer() throws Exception {
        long seed = Long.getLong("diff.seed", 20_251_124L);
        int count = Integer.getInteger("diff.count", 3_000);
        try (Connection ref = sides.plainConnection(OPTIONS); Connection proxy = sharded.connectProxy("", OPTIONS);
             Connection refPs = sides.plainConnection(PREPARED); Connection proxyPs = sharded.connectProxy("", PREPARED)) {
            load(seed, ref, proxy);
            Sessions sessions = new Sessions(ref, proxy, refPs, proxyPs);
            compare(seed, count, sessions, sessions, "");
        }
    }

    @Test
    void aLimitedAccountGetsTheSameAnswersOrTheSamePrivilegeErrors() throws Exception {
        long seed = Long.getLong("diff.seed", 20_251_124L) + 1;
        int count = Integer.getInteger("diff.count", 3_000) / 3;
        try (Connection adminRef = sides.plainConnection(OPTIONS); Connection adminProxy = sharded.connectProxy("", OPTIONS)) {
            load(seed, adminRef, adminProxy);
            for (Connection admin : List.of(adminRef, adminProxy)) {
                for (String grant : LIMITED_GRANTS) {
                    Outcome.must(admin, grant);
                }
            }
            try (Connection ref = sides.plainConnection("limited", "lpw", OPTIONS);
                 Connection proxy = sides.proxyConnection("limited", "lpw", OPTIONS);
                 Connection refPs = sides.plainConnection("limited", "lpw", PREPARED);
                 Connection proxyPs = sides.proxyConnection("limited", "lpw", PREPARED)) {
                Outcome.must(ref, "USE " + SCHEMA);
                Outcome.must(proxy, "USE " + SCHEMA);
                compare(seed, count, new Sessions(ref, proxy, refPs, proxyPs),
                        new Sessions(adminRef, adminProxy, null, null), " as the limited account");
            }
        }
    }

    /**
     * Runs {@code count} generated statements on both sides of {@code sessions}, then compares every
     * table as {@code admin} sees it on both sides; fails on the first differences.
     */
    private void compare(long seed, int count, Sessions sessions, Sessions admin, String as) throws Exception {
        List<String> failures = new ArrayList<>();
        Map<StatementGenerator.Family, Tally> tallies = new EnumMap<>(StatementGenerator.Family.class);
        long started = System.nanoTime();
        Outcome.must(sessions.refPs(), "USE " + SCHEMA);
        Outcome.must(sessions.proxyPs(), "USE " + SCHEMA);
        Placement placement = new Placement(sharded, SCHEMA);
        assertThat(placement.check()).as("rows placed by their keys after loading").isEmpty();
        StatementGenerator generator = new StatementGenerator(seed);
        for (int n = 1; n <= count; n++) {
            StatementGenerator.Generated g = generator.next();
            Tally tally = tallies.computeIfAbsent(g.family(), f -> new Tally());
            tally.statements++;
            String failure = run(g, n, sessions, tally);
            if (failure != null) {
                boolean read = g.check() == StatementGenerator.Check.ORDERED
                        || g.check() == StatementGenerator.Check.UNORDERED;
                failures.add("seed " + seed + ", statement " + n
                        + (read && n % 4 == 3 && !g.sql().contains("\"") ? " (server prepared)" : "")
                        + ": " + g.sql() + "\n    " + failure);
            }
        }
        for (String table : GeneratedSchema.TABLES) {
            String difference = Outcome.tableDifference(admin.ref(), admin.proxy(), SCHEMA + "." + table);
            if (difference != null) {
                failures.add("seed " + seed + ", at the end: table " + table + " " + difference);
            }
        }
        failures.addAll(placement.check());
        System.out.println(report(seed, count, tallies, (System.nanoTime() - started) / 1_000_000) + as);
        java.nio.file.Path all = java.nio.file.Path.of("target", "generated-differential-failures.txt");
        java.nio.file.Files.deleteIfExists(all);
        if (!failures.isEmpty()) {
            java.nio.file.Files.write(all, failures);
            System.out.println("all " + failures.size() + " failures: " + all.toAbsolutePath());
        }
        assertThat(failures.subList(0, Math.min(MAX_REPORTED, failures.size())))
                .as("wrong answers of the proxy over 4 shards against one server%s (seed %d, %d statements, %d failures;"
                        + " replay with -Ddiff.seed=%d -Ddiff.count=%d)", as, seed, count, failures.size(), seed, count)
                .isEmpty();
    }

    /** The plain server's and the proxy's sessions: text protocol, and server prepared statements. */
    private record Sessions(Connection ref, Connection proxy, Connection refPs, Connection proxyPs) {
    }

    /** One statement on both sides; the difference, or null. */
    private static String run(StatementGenerator.Generated g, int n, Sessions sessions, Tally tally) {
        Connection ref = sessions.ref();
        Connection proxy = sessions.proxy();
        if (g.check() == StatementGenerator.Check.WRITE) {
            // The proxy first: a write it refuses must not run on the plain server either.
            Outcome actual = Outcome.run(proxy, g.sql());
            if (refusal(actual)) {
                count(tally, actual);
                String unchanged = Outcome.tableDifference(ref, proxy, g.table());
                return unchanged == null ? null : "a refused write changed " + g.table() + ": " + unchanged;
            }
            Outcome expected = Outcome.run(ref, g.sql());
            String difference = difference(g, n, expected, actual, tally);
            if (difference != null) {
                return difference;
            }
            String table = Outcome.tableDifference(ref, proxy, g.table());
            return table == null ? null : "after it, table " + g.table() + " " + table;
        }
        if (g.check() == StatementGenerator.Check.SESSION) {
            Outcome actual = Outcome.run(proxy, g.sql());
            Outcome expected = Outcome.run(ref, g.sql());
            if (g.sql().startsWith("SET")) {
                // The prepared-statement sessions follow the same settings.
                Outcome.run(sessions.refPs(), g.sql());
                Outcome.run(sessions.proxyPs(), g.sql());
            }
            return difference(g, n, expected, actual, tally);
        }
        Outcome expected;
        Outcome actual;
        if (n % 4 == 3 && !g.sql().contains("\"")) {
            Literals.Parameterized p = Literals.parameterize(g.sql());
            expected = Outcome.runPrepared(sessions.refPs(), p.sql(), p.values());
            actual = Outcome.runPrepared(sessions.proxyPs(), p.sql(), p.values());
        } else {
            expected = Outcome.run(ref, g.sql());
            actual = Outcome.run(proxy, g.sql());
        }
        if (refusal(actual) && !(expected instanceof Outcome.Failure)) {
            count(tally, actual);
            return null;
        }
        return difference(g, n, expected, actual, tally);
    }

    private static String difference(StatementGenerator.Generated g, int n, Outcome expected, Outcome actual, Tally tally) {
        if (expected instanceof Outcome.Failure && actual instanceof Outcome.Failure) {
            tally.bothFailed++;
        } else {
            tally.compared++;
        }
        boolean ordered = g.check() == StatementGenerator.Check.ORDERED;
        Corpus.Kind kind = g.check() == StatementGenerator.Check.WRITE ? Corpus.Kind.WRITE
                : g.check() == StatementGenerator.Check.SESSION ? Corpus.Kind.SESSION : Corpus.Kind.READ;
        Corpus.Entry entry = new Corpus.Entry(n, g.sql(), kind, ordered, -1, false, false, null);
        return Outcome.difference(entry, expected, actual);
    }

    private static boolean refusal(Outcome o) {
        return o instanceof Outcome.Failure f && f.code() == 1235;
    }

    private static void count(Tally tally, Outcome refusal) {
        tally.refused++;
        String message = ((Outcome.Failure) refusal).message();
        String reason = message.contains("evaluated on one shard: ") ? message.substring(message.indexOf("evaluated on one shard: ")) : message.length() > 140 ? message.substring(0, 140) + "..." : message;
        tally.reasons.merge(reason, 1, Integer::sum);
    }

    private static String report(long seed, int count, Map<StatementGenerator.Family, Tally> tallies, long millis) {
        StringBuilder out = new StringBuilder("generated differential run: seed " + seed + ", " + count + " statements in "
                + millis + " ms\n");
        int refused = 0;
        int compared = 0;
        for (Map.Entry<StatementGenerator.Family, Tally> e : tallies.entrySet()) {
            Tally t = e.getValue();
            refused += t.refused;
            compared += t.compared + t.bothFailed;
            out.append(String.format("  %-22s %5d statements, %5d compared, %4d both failed, %4d refused (%5.1f%%)%n",
                    e.getKey(), t.statements, t.compared, t.bothFailed, t.refused, 100.0 * t.refused / t.statements));
            t.reasons.entrySet().stream().sorted((a, b) -> b.getValue() - a.getValue()).limit(3)
                    .forEach(r -> out.append("      ").append(r.getValue()).append("x ").append(r.getKey()).append('\n'));
        }
        out.append(String.format("  total: %d compared, %d refused (%.1f%%)%n", compared, refused, 100.0 * refused / count));
        return out.toString();
    }

    private static void load(long seed, Connection ref, Connection proxy) {
        for (Connection c : List.of(ref, proxy)) {
            Outcome.must(c, "DROP DATABASE IF EXISTS " + SCHEMA);
            Outcome.must(c, "CREATE DATABASE " + SCHEMA + " CHARACTER SET utf8mb4");
            Outcome.must(c, "USE " + SCHEMA);
            for (String ddl : GeneratedSchema.DDL) {
                Outcome.must(c, ddl);
            }
            for (String insert : GeneratedSchema.inserts(seed)) {
                Outcome.must(c, insert);
            }
            Outcome.must(c, GeneratedSchema.FIRST_DRAWN_ORDER);
        }
    }
}
