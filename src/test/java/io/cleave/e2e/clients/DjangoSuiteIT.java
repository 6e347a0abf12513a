package io.cleave.e2e.clients;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.CommandLine;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.StandaloneServer;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An outside suite: apps of Django's own test suite (scripts/django-suite fetches Django 5.2's
 * sdist and runs its tests/runtests.py with the MySQL backend and mysqlclient) against one plain
 * server and through the proxy of a two-shard home without sharding rules, where every table lives
 * on the default shard and the application should see one server. Every app must count the same
 * passes, failures, errors and skips both ways; the tests whose outcomes differ are named.
 *
 * <p>By default the backend-facing apps that fit in about two minutes; {@code -Ddjango.long=true}
 * runs the longer list. Skipped, with the reason, where Python, mysqlclient or Django's sdist
 * cannot be had. It runs on the embedded server in the default run (about two minutes); on the
 * second server with {@code scripts/test -Dservers=all}, where it passes too.
 */
class DjangoSuiteIT {

    /** The apps that talk to the backend most: transactions, cursors, stored procedures, locking, introspection. */
    private static final List<String> SHORT = List.of("backends", "transactions", "transaction_hooks",
            "select_for_update", "introspection", "get_or_create", "basic");

    private static final List<String> LONG = List.of("backends", "transactions", "transaction_hooks",
            "select_for_update", "introspection", "migrations", "get_or_create", "fixtures", "basic", "schema",
            "queries", "aggregation", "expressions", "model_fields", "lookup", "update", "delete", "ordering",
            "constraints", "indexes", "inspectdb", "db_functions", "bulk_create", "raw_query", "many_to_many",
            "custom_pk");

    private static final Path SCRIPT = Path.of("../scripts/django-suite");

    @BeforeAll
    static void installed() throws Exception {
        CommandLine.Result install = CommandLine.run(List.of(SCRIPT.toString(), "install"), 900);
        Assumptions.assumeTrue(install.exitCode() == 0, "Django's test suite cannot be run here: "
                + install.stderr().strip());
    }

    @Test
    void everyAppCountsTheSameThroughTheProxyAsOnOnePlainServer() throws Exception {
        List<String> apps = Boolean.getBoolean("django.long") ? LONG : SHORT;
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "cleave-django-");
        Map<String, String> plain;
        try (StandaloneServer server = StandaloneServer.startTestServer()) {
            plain = run(server.port(), dir.resolve("plain.tsv"), apps);
        }
        Map<String, String> proxied;
        // Each shard has its own tmpdir in the home (the plain server's is its own too): in the host's
        // shared /tmp files come and go (a server then fails a statement with errno 2).
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2).create();
             RunningDaemon daemon = home.start()) {
            proxied = run(daemon.proxyPort(), dir.resolve("proxy.tsv"), apps);
        }
        // The figures of the run, for the record (a report quotes them).
        System.out.println("DjangoSuiteIT: one server " + counts(plain) + "; through the proxy " + counts(proxied));
        assertThat(counts(proxied)).as("outcomes per app through the proxy (left) and on one server (right);"
                + " tests that differ:\n" + differences(plain, proxied, dir.resolve("proxy.tsv")))
                .isEqualTo(counts(plain));
        for (String app : apps) {
            assertThat(counts(plain)).as("every app ran").containsKey(app);
        }
        // Kept when the test fails: the suite's output is there.
        try (var files = Files.walk(dir)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }

    /** Runs the apps against a server; returns each test's outcome (the outcome, then the failure's last line). */
    private static Map<String, String> run(int port, Path results, List<String> apps) throws Exception {
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString(), "run", "--port", String.valueOf(port),
                "--results", results.toString()));
        command.addAll(apps);
        CommandLine.Result r = CommandLine.run(command, 3600);
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        Map<String, String> outcomes = new TreeMap<>();
        for (String line : Files.readAllLines(results)) {
            String[] f = line.split("\t", -1);
            outcomes.put(f[1], f[2] + "\t" + f[3]);
        }
        return outcomes;
    }

    /** "app: N ok, N fail, N error, N skip" per app. */
    private static Map<String, String> counts(Map<String, String> outcomes) {
        Map<String, Map<String, Integer>> byApp = new TreeMap<>();
        outcomes.forEach((test, outcome) -> byApp.computeIfAbsent(test.split("[. ]")[0], a -> new TreeMap<>())
                .merge(outcome.split("\t")[0], 1, Integer::sum));
        Map<String, String> out = new TreeMap<>();
        byApp.forEach((app, n) -> out.put(app, n.toString()));
        return out;
    }

    private static String differences(Map<String, String> plain, Map<String, String> proxied, Path log) {
        StringBuilder sb = new StringBuilder();
        TreeMap<String, String> all = new TreeMap<>(plain);
        proxied.forEach(all::putIfAbsent);
        for (String test : all.keySet()) {
            String a = plain.getOrDefault(test, "absent\t");
            String b = proxied.getOrDefault(test, "absent\t");
            if (!a.split("\t")[0].equals(b.split("\t")[0])) {
                sb.append("  ").append(test).append(": ").append(a.split("\t")[0]).append(" on one server, ")
                        .append(b.replace("\t", " ")).append(" through the proxy\n");
            }
        }
        return sb.append("(the suite's output: ").append(log).append(".log)").toString();
    }
}
