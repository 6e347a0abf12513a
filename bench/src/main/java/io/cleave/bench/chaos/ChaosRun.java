package io.cleave.bench.chaos;

import io.cleave.bench.home.BenchHome;
import io.cleave.bench.home.HomeSpec;
import io.cleave.bench.home.Layout;
import io.cleave.bench.jdbc.JdbcTarget;
import io.cleave.bench.measure.LoadAverage;
import io.cleave.bench.tpcc.load.LoadOptions;
import io.cleave.bench.tpcc.load.TpccLoader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One soak run: a home of the real binary with the bank, the upserted tables and TPC-C loaded;
 * every workload running through the proxy; the schedule's faults fired one after another at
 * their times, each followed, once the home settled, by a round of checks with the clients at
 * rest. The first round that fails ends the run; so does the end of the schedule, after the moves
 * under way ended and a last round.
 */
public final class ChaosRun {
    private static final Duration PAUSE_TIMEOUT = Duration.ofMinutes(3);
    private static final Duration MOVES_END_TIMEOUT = Duration.ofMinutes(20);
    /** Workloads run at least this long after each check round before the next fault fires. */
    private static final long MIN_RUN_MILLIS = 1_000;

    private final FaultSchedule schedule;
    private final Path cleaveJar;
    private final String serverBinary;
    private final Path output;
    private final PrintWriter out;

    public ChaosRun(FaultSchedule schedule, Path cleaveJar, String serverBinary, Path output, PrintWriter out) {
        this.schedule = schedule;
        this.cleaveJar = cleaveJar;
        this.serverBinary = serverBinary;
        this.output = output;
        this.out = out;
    }

    public ChaosResult run() throws Exception {
        ChaosOptions o = schedule.options();
        Files.createDirectories(output);
        schedule.write(output);
        out.println("chaos soak, " + schedule.describe().strip());
        out.println("(schedule written to " + output.resolve(FaultSchedule.FILE) + ")");
        LoadAverage loadBefore = LoadAverage.read();
        HomeSpec spec = new HomeSpec(o.shards(), o.bufferPool(), Layout.CHAOS, o.warehouses(), 0, serverBinary,
            Optional.empty(), 0, "none", Map.of("xa_recovery_interval_s", "5"));
        ChaosLayout layout = new ChaosLayout(o.shards(), o.warehouses());
        try (BenchHome bench = BenchHome.create(cleaveJar, spec, o.maxShards())) {
            bench.up();
            ChaosHome home = new ChaosHome(bench, layout);
            Bank bank = new Bank(o.shards(), o.branchesPerShard(), o.accountsPerBranch());
            KvTables kv = new KvTables(o.kvKeys());
            load(home, bank, kv, o);
            ChaosResult result = new Session(o, home, bank, kv, loadBefore).run();
            if (!result.passed()) {
                keepLogs(bench.home().resolve("logs"), output.resolve("logs"));
            }
            return result;
        }
    }

    /**
     * Copies the home's logs (the daemon's, each shard's error log) beside the results before the
     * home is deleted: a failure's cause is often there only (a shard that crashed on its own).
     */
    private void keepLogs(Path logs, Path kept) {
        try (var files = Files.walk(logs)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                Path to = kept.resolve(logs.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
            out.println("the home's logs are kept in " + kept);
        } catch (IOException e) {
            out.println("could not keep the home's logs: " + e);
        }
    }

    private void load(ChaosHome home, Bank bank, KvTables kv, ChaosOptions o) throws Exception {
        out.printf("loading %d bank accounts, %d kv keys%s ...%n", bank.accounts(), o.kvKeys(),
            o.warehouses() == 0 ? "" : " and " + o.warehouses() + " TPC-C warehouses");
        try (Connection c = home.proxy("").getConnection(); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE IF NOT EXISTS " + Bank.DATABASE);
        }
        try (Connection c = home.proxy(Bank.DATABASE).getConnection()) {
            bank.load(c);
            kv.load(c);
        }
        if (o.warehouses() > 0) {
            HomeSpec spec = home.bench().spec();
            for (int s = 0; s < o.shards(); s++) {
                try (Connection c = home.bench().shard(s, "").getConnection(); Statement st = c.createStatement()) {
                    st.execute("CREATE DATABASE IF NOT EXISTS " + TpccCheck.DATABASE);
                }
                int first = spec.firstWarehouse(s);
                TpccLoader.load(home.bench().shard(s, TpccCheck.DATABASE), new LoadOptions(spec.lastWarehouse(s) - first + 1,
                    first, 2, true, LoadOptions.DEFAULT_SEED));
            }
            try (Connection c = home.proxy(TpccCheck.DATABASE).getConnection(); Statement s = c.createStatement()) {
                // A move copies and checks rows by primary key; TPC-C's history has none.
                s.execute("ALTER TABLE history ADD COLUMN h_id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY");
            }
        }
    }

    /** The run once the home is loaded: clients, faults, checks. */
    private final class Session {
        private final ChaosOptions o;
        private final ChaosHome home;
        private final Bank bank;
        private final KvTables kv;
        private final LoadAverage loadBefore;
        private final RunClock clock = new RunClock();
        private final WorkloadGate gate = new WorkloadGate();
        private final ClientErrors errors = new ClientErrors();
        private final Violations violations = new Violations();
        private final FaultTimeline timeline = new FaultTimeline();
        private final WorkloadCounts counts = new WorkloadCounts();
        private final BankLedger bankLedger = new BankLedger();
        private final UpsertLedger upsertLedger = new UpsertLedger();
        private final List<WorkloadClient> clients = new ArrayList<>();
        private final List<Thread> threads = new ArrayList<>();
        private final List<FaultEvent> events = new ArrayList<>();
        private final List<CheckRound> rounds = new ArrayList<>();
        private final Path faultLog = output.resolve("faults.txt");

        Session(ChaosOptions o, ChaosHome home, Bank bank, KvTables kv, LoadAverage loadBefore) {
            this.o = o;
            this.home = home;
            this.bank = bank;
            this.kv = kv;
            this.loadBefore = loadBefore;
        }

        ChaosResult run() throws Exception {
            Files.writeString(faultLog, "");
            Checker checker = new Checker(home, new BankCheck(bank, bankLedger), new KvCheck(kv, upsertLedger),
                o.warehouses() > 0 ? new TpccCheck(o.warehouses()) : null, violations, counts, errors);
            VanishingClient vanishing = new VanishingClient(home.proxy(Bank.DATABASE), bank, bankLedger, clock);
            FaultInjector injector = new FaultInjector(home, o, bank, vanishing, clock, timeline);
            String failure = null;
            try (CpuMeter cpu = new CpuMeter(home::status)) {
                CpuMeter.Usage usage;
                try {
                    failure = round(checker, 0, null);
                    startClients();
                    long resumed = clock.millis();
                    for (ScheduledFault f : schedule.faults()) {
                        if (failure != null) {
                            break;
                        }
                        waitUntil(Math.max(f.atMillis(), resumed + MIN_RUN_MILLIS + f.pick(9, 2_000)));
                        FaultEvent event = injector.fire(f);
                        events.add(event);
                        log(event.line());
                        failure = round(checker, f.index(), f.kind());
                        resumed = clock.millis();
                    }
                    if (failure == null) {
                        failure = finish(checker);
                    }
                } catch (Exception e) {
                    failure = "the soak could not go on: " + e;
                    java.io.StringWriter trace = new java.io.StringWriter();
                    e.printStackTrace(new PrintWriter(trace));
                    log(failure + "\n" + trace);
                } finally {
                    stopClients();
                    usage = cpu.usage();
                }
                ChaosResult result = new ChaosResult(o, clock.origin().toString(), clock.millis() / 1000.0,
                    home.bench().status().serverBinary(), events, rounds, workload(), errors.byCode(), errorsByFault(),
                    usage.othersPercent(), usage.oursPercent(), loadBefore.toString(), LoadAverage.read().toString(),
                    failure == null, failure);
                result.write(output);
                Files.writeString(output.resolve("summary.md"), ChaosReport.markdown(result));
                return result;
            }
        }

        /** After the last fault: the moves under way end, the home settles, a last round. */
        private String finish(Checker checker) throws Exception {
            log("schedule done; waiting for the moves under way to end");
            long deadline = System.nanoTime() + MOVES_END_TIMEOUT.toNanos();
            while (!home.movesUnderWay().isEmpty() || scaleRuns()) {
                if (System.nanoTime() > deadline) {
                    return "moves still under way " + MOVES_END_TIMEOUT.toMinutes() + " minutes after the last fault: "
                        + home.movesUnderWay();
                }
                Thread.sleep(1_000);
            }
            String unsettled = home.awaitSettled(Duration.ofMinutes(5));
            if (unsettled != null) {
                return "the home did not settle at the end: " + unsettled;
            }
            return round(checker, -1, null);
        }

        private boolean scaleRuns() {
            try {
                String state = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(home.bench().admin("GET", "/v1/scale", null)).path("state").asText();
                return !state.isEmpty() && !state.equals("done") && !state.equals("failed") && !state.equals("none");
            } catch (IOException | RuntimeException e) {
                return false;
            }
        }

        /** Pauses the clients, checks, resumes them; returns what failed, or null. */
        private String round(Checker checker, int afterFault, FaultKind kind) throws Exception {
            long started = clock.millis();
            int busy = gate.pause(PAUSE_TIMEOUT);
            List<CheckResult> results = new ArrayList<>();
            if (busy > 0) {
                results.add(CheckResult.of("clients at rest", "", List.of(busy + " clients still inside a transaction or"
                    + " statement " + PAUSE_TIMEOUT.toMinutes() + " minutes after the checks asked them to stop")));
            } else {
                int open = 0;
                for (WorkloadClient c : clients) {
                    open += c.validate();
                }
                results.addAll(checker.run(open));
            }
            CheckRound round = new CheckRound(rounds.size(), afterFault, kind == null ? "" : kind.label(), started,
                clock.millis() - started, results);
            rounds.add(round);
            List<String> failed = results.stream().filter(r -> !r.passed()).map(r -> r.name() + ": "
                + String.join("; ", r.differences())).toList();
            log(String.format(java.util.Locale.ROOT, "%s  +%8.1f s  checks %d%s %s in %.1f s%s", clock.wallClock(started),
                started / 1000.0, round.round(), afterFault > 0 ? " after #" + afterFault : afterFault == 0
                    ? " before the first fault" : " at the end", round.passed() ? "held" : "FAILED",
                round.tookMillis() / 1000.0, round.passed() ? "" : ":\n    " + String.join("\n    ", failed)));
            gate.resume();
            return round.passed() ? null : "check round " + round.round() + (afterFault > 0 ? " after fault #"
                + afterFault + " (" + kind.label() + ")" : "") + ": " + String.join("; ", failed);
        }

        private void startClients() {
            ChaosContext context = new ChaosContext(o.seed(), gate, clock, errors, violations, timeline, counts);
            JdbcTarget chaos = home.proxy(Bank.DATABASE).withParameter("socketTimeout=150000")
                .withParameter("connectTimeout=10000");
            JdbcTarget tpcc = home.proxy(TpccCheck.DATABASE).withParameter("socketTimeout=150000")
                .withParameter("connectTimeout=10000");
            for (int i = 0; i < o.transferClients(); i++) {
                clients.add(new TransferClient(i, context, chaos, bank, bankLedger));
            }
            for (int i = 0; i < o.upsertClients(); i++) {
                clients.add(new UpsertClient(i, o.upsertClients(), context, chaos, kv, upsertLedger));
            }
            for (int i = 0; o.warehouses() > 0 && i < o.tpccTerminals(); i++) {
                clients.add(new TpccClient(i, context, tpcc, o.warehouses()));
            }
            for (int i = 0; i < o.readers(); i++) {
                clients.add(new InvariantReader(i, context, i % 2 == 0 ? chaos : chaos.withServerPreparedStatements(),
                    bank, o.warehouses(), o.globalReads()));
            }
            for (WorkloadClient c : clients) {
                Thread t = new Thread(c, "chaos-" + c.workload + "-" + threads.size());
                t.setDaemon(true);
                threads.add(t);
                t.start();
            }
        }

        private void stopClients() throws InterruptedException {
            gate.stop();
            for (Thread t : threads) {
                t.join(PAUSE_TIMEOUT.toMillis());
            }
        }

        private Map<String, Long> workload() {
            Map<String, Long> w = new LinkedHashMap<>();
            w.put("transfers acknowledged", bankLedger.count(BankLedger.Outcome.ACKNOWLEDGED));
            w.put("transfers failed", bankLedger.count(BankLedger.Outcome.FAILED));
            w.put("transfers without answer to COMMIT", bankLedger.count(BankLedger.Outcome.UNKNOWN));
            w.put("upserts acknowledged", upsertLedger.acknowledgedCount());
            w.put("upserts without answer", upsertLedger.unknownCount());
            w.put("TPC-C transactions", counts.tpccCommitted.get());
            w.put("reads of acknowledged writes", counts.readBacks());
            w.put("invariant reads", counts.invariantReads());
            return w;
        }

        /** Errors by the fault that fired last before each (within 10 s of its settling), else "none". */
        private Map<String, Long> errorsByFault() {
            Map<String, Long> out = new TreeMap<>();
            for (ClientErrors.ClientError e : errors.all()) {
                String kind = "none";
                for (FaultEvent f : events) {
                    if (f.firedMillis() <= e.atMillis() && e.atMillis() <= f.settledMillis() + 10_000) {
                        kind = f.kind().label();
                    }
                }
                out.merge(kind + " " + e.code(), 1L, Long::sum);
            }
            return out;
        }

        private void waitUntil(long millis) throws InterruptedException {
            long left = millis - clock.millis();
            if (left > 0) {
                Thread.sleep(left);
            }
        }

        private void log(String line) throws IOException {
            out.println(line);
            Files.writeString(faultLog, line + "\n", StandardCharsets.UTF_8, StandardOpenOption.APPEND);
        }
    }
}
