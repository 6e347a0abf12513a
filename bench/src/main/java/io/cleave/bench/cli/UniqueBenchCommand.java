package io.cleave.bench.cli;

import io.cleave.bench.home.BenchHome;
import io.cleave.bench.home.HomeSpec;
import io.cleave.bench.home.Layout;
import io.cleave.bench.jdbc.JdbcTarget;
import io.cleave.bench.measure.HostCpu;
import io.cleave.bench.online.OwnCpu;
import io.cleave.bench.unique.PointLoop;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code bench unique}: two tables hashed by id over --shards shards, alike but for one thing:
 * {@code sbtest1.email} is UNIQUE (a global unique key, kept through its lookup table), {@code
 * sbtest2.email} a plain index. Measures single-row INSERT latency and rate into each, then point
 * SELECTs: by the unique key (a lookup, then one shard), by the plain indexed column (every
 * shard, what a unique key without the sharding column got before) and by the sharding key.
 * With --account, the INSERT and the read by the unique key also run as an account with
 * privileges on sbtest only, whose lookup statements go through Cleave's procedure.
 */
@Command(name = "unique", mixinStandardHelpOptions = true,
    description = {"INSERT latency and rate with and without a global unique key; point SELECT by the unique key"
        + " against a scatter by the same column and against the sharding key."})
final class UniqueBenchCommand implements Callable<Integer> {

    @Mixin
    HomeMixin home;

    @Option(names = "--shards", defaultValue = "4", description = "Shards (default: ${DEFAULT-VALUE}).")
    int shards;

    @Option(names = "--threads", defaultValue = "4", description = "Clients (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--duration", defaultValue = "20", description = "Seconds per measurement (default: ${DEFAULT-VALUE}).")
    double seconds;

    @Option(names = "--rounds", defaultValue = "2", description = "Rounds of every measurement, alternating (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--account", description = "Also insert into and read by the unique key as 'bench_app'@'%', an account"
            + " with SELECT, INSERT, UPDATE, DELETE on sbtest only (its lookup kept through Cleave's procedure), next"
            + " to root in every round.")
    boolean account;

    static final String APP_USER = "bench_app";
    static final String APP_PASSWORD = "bench_app_pw";

    @Override
    public Integer call() throws Exception {
        PrintWriter out = new PrintWriter(System.out, true);
        HomeSpec spec = home.spec(Layout.SYSBENCH, 0, 2).withShards(shards);
        try (BenchHome h = BenchHome.create(home.cleaveJar(), spec)) {
            h.up();
            JdbcTarget admin = h.proxy("").withoutDatabase();
            try (Connection c = admin.getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE IF NOT EXISTS sbtest");
                s.execute("CREATE TABLE sbtest.sbtest1 (id BIGINT NOT NULL PRIMARY KEY, email VARCHAR(64) NOT NULL UNIQUE,"
                        + " pad CHAR(60) NOT NULL)");
                s.execute("CREATE TABLE sbtest.sbtest2 (id BIGINT NOT NULL PRIMARY KEY, email VARCHAR(64) NOT NULL,"
                        + " pad CHAR(60) NOT NULL, KEY (email))");
                if (account) {
                    s.execute("CREATE USER IF NOT EXISTS '" + APP_USER + "'@'%' IDENTIFIED BY '" + APP_PASSWORD + "'");
                    s.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON sbtest.* TO '" + APP_USER + "'@'%'");
                }
            }
            JdbcTarget proxy = h.proxy("sbtest");
            JdbcTarget app = new JdbcTarget(proxy.url(), APP_USER, APP_PASSWORD);
            AtomicLong ids1 = new AtomicLong();
            AtomicLong ids2 = new AtomicLong();
            AtomicLong reads = new AtomicLong();
            String pad = "x".repeat(60);
            HostCpu cpu0 = HostCpu.read();
            OwnCpu ours = new OwnCpu(List.of(h));
            List<PointLoop.Result> results = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                results.add(PointLoop.run("INSERT, no global unique key", proxy,
                        "INSERT INTO sbtest2 (id, email, pad) VALUES (?, ?, ?)",
                        i -> new Object[]{i, "user" + i + "@example.com", pad}, threads, seconds, ids2));
                results.add(PointLoop.run("INSERT, global unique key email", proxy,
                        "INSERT INTO sbtest1 (id, email, pad) VALUES (?, ?, ?)",
                        i -> new Object[]{i, "user" + i + "@example.com", pad}, threads, seconds, ids1));
                if (account) {
                    results.add(PointLoop.run("INSERT, global unique key email, as " + APP_USER, app,
                            "INSERT INTO sbtest1 (id, email, pad) VALUES (?, ?, ?)",
                            i -> new Object[]{i, "user" + i + "@example.com", pad}, threads, seconds, ids1));
                }
            }
            long rows1 = ids1.get();
            long rows2 = ids2.get();
            for (int round = 0; round < rounds; round++) {
                results.add(PointLoop.run("SELECT by the unique key (lookup, one shard)", proxy,
                        "SELECT id, pad FROM sbtest1 WHERE email = ?",
                        i -> new Object[]{"user" + (1 + i % rows1) + "@example.com"}, threads, seconds, reads));
                if (account) {
                    results.add(PointLoop.run("SELECT by the unique key, as " + APP_USER, app,
                            "SELECT id, pad FROM sbtest1 WHERE email = ?",
                            i -> new Object[]{"user" + (1 + i % rows1) + "@example.com"}, threads, seconds, reads));
                }
                results.add(PointLoop.run("SELECT by a plain indexed column (every shard)", proxy,
                        "SELECT id, pad FROM sbtest2 WHERE email = ?",
                        i -> new Object[]{"user" + (1 + i % rows2) + "@example.com"}, threads, seconds, reads));
                results.add(PointLoop.run("SELECT by the sharding key (one shard)", proxy,
                        "SELECT id, pad FROM sbtest1 WHERE id = ?",
                        i -> new Object[]{1 + i % rows1}, threads, seconds, reads));
            }
            HostCpu cpu = HostCpu.read().minus(cpu0);
            long own = ours.micros();
            out.printf(Locale.ROOT, "%n%d shards, %d clients, %d rounds of %.0f s each; %,d and %,d rows inserted%n%n",
                    shards, threads, rounds, seconds, rows1, rows2);
            out.println("| statement | per second | p50 ms | p99 ms | errors |");
            out.println("|---|---|---|---|---|");
            List<String> names = new ArrayList<>();
            results.forEach(r -> {
                if (!names.contains(r.what())) {
                    names.add(r.what());
                }
            });
            long errors = 0;
            for (String name : names) {
                List<PointLoop.Result> mine = results.stream().filter(r -> r.what().equals(name)).toList();
                double rate = mine.stream().mapToDouble(PointLoop.Result::perSecond).average().orElse(0);
                double p50 = mine.stream().mapToDouble(PointLoop.Result::p50Ms).average().orElse(0);
                double p99 = mine.stream().mapToDouble(PointLoop.Result::p99Ms).average().orElse(0);
                long e = mine.stream().mapToLong(PointLoop.Result::errors).sum();
                errors += e;
                out.printf(Locale.ROOT, "| %s | %,.0f | %.2f | %.2f | %d |%n", name, rate, p50, p99, e);
            }
            double total = cpu.totalMicros() / 1e6;
            double others = Math.max(0, cpu.busyMicros() - own) / 1e6;
            out.printf(Locale.ROOT, "%nCPU: other processes used %.0f%% of the host's CPU time during the run%n",
                    total == 0 ? 0 : 100 * others / total);
            return errors == 0 ? 0 : 1;
        }
    }
}
