package io.cleave.e2e.routing;

import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.ServerMatrix;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The proof that the proxy answers like one server: the same generated data goes into one plain
 * MariaDB and, through the proxy, into four shards; every statement of the corpus
 * ({@code differential/corpus.sql}) then runs on both, and results, counts, errors and, after each
 * write, the written table must be the same both ways. Statements the proxy cannot answer
 * correctly across shards are listed in the corpus with the error they must get.
 *
 * <p>The corpus runs twice, each time on freshly loaded data in its own schema: through the text
 * protocol, and as server prepared statements with the literals bound as parameters (binary rows,
 * shards resolved from bound values). Loading in the second run goes through prepared statements
 * too.
 */
@ServerMatrix
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DifferentialIT {

    private static final String CORPUS = "/differential/corpus.sql";

    private ServerAndShards sides;
    private RunningDaemon sharded;
    private Corpus corpus;

    @BeforeAll
    void start() throws Exception {
        corpus = Corpus.load(CORPUS);
        sides = ServerAndShards.start(4, DifferentialData.SHARDING_YAML, Map.of());
        sharded = sides.sharded();
    }

    @AfterAll
    void stop() {
        if (sides != null) {
            sides.close();
        }
    }

    @Test
    void textProtocol() throws Exception {
        runCorpus("diff_text", false);
    }

    @Test
    void serverPreparedStatements() throws Exception {
        runCorpus("diff_ps", true);
    }

    private void runCorpus(String schema, boolean prepared) throws Exception {
        String options = prepared ? "useServerPrepStmts=true&cachePrepStmts=false" : "useServerPrepStmts=false";
        try (Connection ref = sides.plainConnection(options); Connection proxy = sharded.connectProxy("", options)) {
            load(schema, ref, proxy, prepared);
            Placement placement = new Placement(sharded, schema);
            List<String> failures = new ArrayList<>(placement.check());
            failures.addAll(compareTables(ref, proxy, DifferentialData.TABLES, "after loading"));
            assertThat(failures).as("data set loaded alike").isEmpty();

            int refused = 0;
            // A table that went different is reported once: every later comparison would repeat it.
            Set<String> diverged = new HashSet<>();
            for (Corpus.Entry entry : corpus.entries()) {
                String failure = run(entry, ref, proxy, prepared);
                if (failure != null) {
                    failures.add(entry + "\n    " + failure);
                }
                if (entry.refusal(prepared) != null) {
                    refused++;
                    continue;
                }
                if (entry.kind() == Corpus.Kind.WRITE && !diverged.contains(entry.writtenTable())) {
                    List<String> different = compareTables(ref, proxy, List.of(entry.writtenTable()), "after " + entry);
                    if (!different.isEmpty()) {
                        diverged.add(entry.writtenTable());
                        failures.addAll(different);
                    } else if (entry.writtenTable().equals("item")) {
                        failures.addAll(placement.checkReferenceCopies("item", ref));
                    }
                }
            }
            List<String> untouched = new ArrayList<>(DifferentialData.TABLES);
            untouched.removeAll(diverged);
            failures.addAll(compareTables(ref, proxy, untouched, "at the end"));
            failures.addAll(placement.check());
            assertThat(failures).as("differences between one server and the proxy over 4 shards (%d statements, %d"
                    + " refused)", corpus.entries().size(), refused).isEmpty();
        }
    }

    /** One corpus entry on both sides; the difference, or null. */
    private static String run(Corpus.Entry entry, Connection ref, Connection proxy, boolean prepared)
            throws SQLException {
        boolean refusedWrite = entry.refusal() != null && entry.kind() == Corpus.Kind.WRITE;
        if (refusedWrite) {
            // The plain server shows the statement is valid, but must not keep its effect.
            ref.setAutoCommit(false);
        }
        Outcome expected;
        Outcome actual;
        if (prepared && entry.kind() != Corpus.Kind.SESSION) {
            Literals.Parameterized p = entry.parameterize() ? Literals.parameterize(entry.sql())
                    : new Literals.Parameterized(entry.sql(), List.of());
            expected = Outcome.runPrepared(ref, p.sql(), p.values());
            actual = Outcome.runPrepared(proxy, p.sql(), p.values());
        } else {
            expected = Outcome.run(ref, entry.sql());
            actual = Outcome.run(proxy, entry.sql());
        }
        if (refusedWrite) {
            ref.rollback();
            ref.setAutoCommit(true);
        }
        Corpus.Refusal refusal = entry.refusal(prepared);
        if (refusal != null) {
            if (expected instanceof Outcome.Failure f) {
                return "listed as refused, but one server fails on it too: " + f.code() + " " + f.message();
            }
            if (!(actual instanceof Outcome.Failure f)) {
                return "the proxy answered a statement listed as refused (with " + refusal.code() + ")";
            }
            if (f.code() != refusal.code() || !f.message().contains(refusal.fragment())) {
                return "refused with " + f.code() + " '" + f.message() + "', expected " + refusal.code()
                        + " containing '" + refusal.fragment() + "'";
            }
            return null;
        }
        return Outcome.difference(entry, expected, actual);
    }

    private static void load(String schema, Connection ref, Connection proxy, boolean prepared) {
        for (Connection c : List.of(ref, proxy)) {
            Outcome.must(c, "DROP DATABASE IF EXISTS " + schema);
            Outcome.must(c, "CREATE DATABASE " + schema + " CHARACTER SET utf8mb4");
            Outcome.must(c, "USE " + schema);
            for (String ddl : DifferentialData.SCHEMA) {
                Outcome.must(c, ddl);
            }
            for (String insert : DifferentialData.inserts()) {
                Outcome o;
                if (prepared) {
                    Literals.Parameterized p = Literals.parameterize(insert);
                    o = Outcome.runPrepared(c, p.sql(), p.values());
                } else {
                    o = Outcome.run(c, insert);
                }
                if (o instanceof Outcome.Failure f) {
                    throw new AssertionError((c == proxy ? "proxy" : "server") + " failed to load: " + f.message()
                            + "\n" + insert);
                }
            }
        }
    }

    /** Whole tables compared as multisets. */
    private static List<String> compareTables(Connection ref, Connection proxy, List<String> tables, String when) {
        List<String> failures = new ArrayList<>();
        for (String table : tables) {
            String difference = Outcome.tableDifference(ref, proxy, table);
            if (difference != null) {
                failures.add("table " + table + " " + when + ": " + difference);
            }
        }
        return failures;
    }
}
