package io.cleave.e2e.standby;

import io.cleave.bench.tpcc.check.ConsistencyCheck;
import io.cleave.e2e.moves.BankTransfers;
import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.EtcdCluster;
import io.cleave.e2e.support.NetnsHosts;
import io.cleave.e2e.support.TpccSharding;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.coordination.CoordinationReport;
import io.cleave.manager.coordination.PairState;
import io.cleave.manager.coordination.RejoinReport;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.standby.HostRole;
import io.cleave.manager.standby.StandbyReport;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The standby pair on separate hosts: network namespaces joined by veths through a bridge, each with its own address
 * (see {@link NetnsHosts}). Host A runs the primary's daemon from the shipped jar, host B the standby's (seeded by
 * {@code cleave standby} run in B), hosts e0..e2 one etcd member each; the test's clients run bank transfers through
 * A's proxy from the test's own namespace, each recording what it saw acknowledged.
 * <ul>
 * <li>A's link taken down: A cannot reach etcd and fences itself, B takes over; the same while A's commits on one
 *     shard wait for B's acknowledgement: once back, A refuses at once and sets read_only where no commit waits.</li>
 * <li>A partitioned from etcd by nftables drops in A (clients and B still reach A):
 *     A refuses naming the new primary, B promotes, A writes nothing after, A rejoins once the drops are gone; then
 *     SIGKILL of every process of host B, now the primary: A takes over again.</li>
 * <li>SIGKILL of every process of host A: B takes over.</li>
 * </ul>
 * All run with {@code -Dstandby.netns.all}, over 2 shards ({@code -Dstandby.shards=N}: N). After each: no acknowledged
 * transfer missing, the total unchanged, no branch prepared, one primary. With {@code -Dstandby.netns.tpcc} (also
 * for {@link NetnsSwitchoverIT}) TPC-C terminals (4, {@code -Dstandby.netns.tpcc.terminals=T}; one warehouse per
 * shard) run beside the transfers and move with them, except in the case of waiting commits: their errors may only
 * be cut connections and the fence's refusals, TPC-C's conditions hold through the new primary's proxy after each
 * failover, and the longest time TPC-C stood still after each event is printed with tpmC and others' CPU. The failover time (the loss to the first write served through the new primary's
 * proxy) is printed.
 */
class NetnsFailoverIT {

    private static final java.nio.file.attribute.FileAttribute<?> SEARCHABLE =
            java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
    /** 2 shards, or {@code -Dstandby.shards=N}. */
    static final int SHARDS = StandbyIT.PAIR_SHARDS;
    private static final BankTransfers.Shape SHAPE = StandbyIT.shape(SHARDS);
    /**
     * {@code -Dstandby.netns.tpcc}: TPC-C terminals beside the bank's clients (one warehouse per shard), moved with
     * them, its errors and conditions checked after each case (see {@link MovableTpcc}).
     */
    static final boolean TPCC = Boolean.getBoolean("standby.netns.tpcc");
    private static final int TPCC_TERMINALS = Integer.getInteger("standby.netns.tpcc.terminals", 4);
    private static final int LEASE_SECONDS = 3;
    private static final String PASSWORD = "netns-pw";
    private static final int BASE_PORT = 3307;
    private static final int PROXY_PORT = 6033;
    private static final int ADMIN_PORT = 6034;
    private static final List<String> ETCD_HOSTS = List.of("e0", "e1", "e2");
    private static final String ACCOUNTS_CHECKSUM = "SELECT CONCAT(COUNT(*), '/', SUM(balance), '/',"
            + " BIT_XOR(CRC32(CONCAT(branch, '/', id, '/', balance)))) FROM bank.accounts";

    @Test
    void aPrimaryWhoseLinkGoesDownFencesItselfAndTheStandbyTakesOver() throws Exception {
        // Opt-in: the default run is at its time budget (45 to 60 s for this case).
        Assumptions.assumeTrue(Boolean.getBoolean("standby.netns.all"), "the namespace failover cases run with"
                + " -Dstandby.netns.all");
        try (Pair pair = Pair.start("link", TPCC)) {
            pair.takeALinkDownUntilBServes("link down");
            // Read inside A, over its loopback: what A's shards hold once B serves.
            Map<Integer, String> gtids = pair.gtids("a");
            pair.finishLoad("link down");
            pair.checkPrimary("b", 2);

            // A's link back: it is fenced (its lease lapsed, a newer epoch exists) and its shards wrote nothing since.
            pair.net.link("a", true);
            String named = ProxyWrites.awaitRefusal(pair.proxy("a"), PASSWORD, m -> m.contains("the primary is now"));
            System.out.println("NetnsFailoverIT (link down): A once its link is back: " + named);
            assertThat(named).contains("epoch 2").contains(pair.adminUrl("b"));
            pair.checkFenced("a", gtids);
            pair.finishTpcc("link down", "b");
        }
    }

    /**
     * A's link goes down while its commits on shard 0 wait for B's acknowledgement (B stopped receiving shard 0's
     * binlog first, as a link that fails under a commit leaves it). Once A's link is back, A's proxy answers every
     * write with the fence's refusal at once, naming B soon after, and never leaves a client without an answer; the
     * waiting commits stay unanswered and invisible on A (semi-sync is not turned off to release them).
     */
    @Test
    void aFencedPrimaryWhoseCommitsWaitForTheLostStandbyRefusesAtOnce() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("standby.netns.all"), "the namespace failover cases run with"
                + " -Dstandby.netns.all");
        try (Pair pair = Pair.start("waiting")) {
            pair.shards("b").rows(0, "STOP SLAVE IO_THREAD");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (pair.waitingCommits("a", 0) == 0) {
                assertThat(System.nanoTime()).as("a commit on A's shard 0 waits for B within 30 s").isLessThan(deadline);
                Thread.sleep(50);
            }
            pair.takeALinkDownUntilBServes("commits waiting");
            Map<Integer, String> gtids = pair.gtids("a");
            String visible = pair.shards("a").rows(0, ACCOUNTS_CHECKSUM).get(0);
            pair.finishLoad("commits waiting");
            pair.checkPrimary("b", 2);

            pair.net.link("a", true);
            long back = System.nanoTime();
            List<String> answers = new ArrayList<>();
            String last;
            do {
                last = ProxyWrites.writeThrough(pair.proxy("a"), PASSWORD);
                answers.add((System.nanoTime() - back) / 1_000_000 + " ms: " + last);
                if (!last.startsWith("1290")) {
                    // Seen about once in six runs, cause not found yet: what the sockets and A's threads did then.
                    System.out.println("NetnsFailoverIT (commits waiting): A's proxy did not refuse: " + last + "\n"
                            + pair.diagnosis("a"));
                }
                assertThat(last).as("A's proxy's answer %d ms after its link came back (all: %s)",
                        (System.nanoTime() - back) / 1_000_000, answers).startsWith("1290");
                assertThat(System.nanoTime() - back).as("A names the new primary within 30 s: %s", answers)
                        .isLessThan(TimeUnit.SECONDS.toNanos(30));
                Thread.sleep(20);
            } while (!last.contains("the primary is now"));
            System.out.println("NetnsFailoverIT (commits waiting): A once its link is back, " + answers.size()
                    + " answers, the last: " + answers.get(answers.size() - 1));
            assertThat(last).contains("epoch 2").contains(pair.adminUrl("b"));
            pair.checkFenced("a", gtids);
            // Shard 1, where no commit waits, is read-only at once; shard 0 is left to the proxy's fence while its
            // commits wait (read_only would hold the global read lock behind them), and the status says so.
            assertThat(pair.shards("a").rows(1, "SELECT @@read_only")).as("A's shard 1 read-only").containsExactly("1");
            assertThat(pair.admin("a").status().coordination().shardsReadOnly())
                    .contains("shard 0 (").contains("commit(s) wait for the standby's acknowledgement")
                    .doesNotContain("shard 1 (");
            assertThat(pair.waitingCommits("a", 0)).as("A's commits still wait for an acknowledgement").isPositive();
            assertThat(pair.shards("a").rows(0, ACCOUNTS_CHECKSUM).get(0)).as("what A's shard 0 shows: no waiting"
                    + " commit made visible").isEqualTo(visible);
        }
    }

    @Test
    void aPrimaryPartitionedFromEtcdIsReplacedAndRejoinsThenTheNewPrimaryHostIsKilled() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("standby.netns.all"), "the partition and kill cases run with"
                + " -Dstandby.netns.all (the default run keeps the link-down case)");
        try (Pair pair = Pair.start("partition", TPCC)) {
            long lost = pair.event("A partitioned from etcd");
            pair.net.partition("a", ETCD_HOSTS);
            String refusal = ProxyWrites.awaitRefusal(pair.proxy("a"), PASSWORD, null);
            System.out.println("NetnsFailoverIT (partition): A refused after " + (System.nanoTime() - lost) / 1_000_000
                    + " ms: " + refusal);
            assertThat(refusal).contains("fenced").contains("lease");
            pair.load.outageBegins();
            pair.retarget("b");
            long firstWrite = ProxyWrites.awaitFirstWrite(pair.proxy("b"), PASSWORD, lost, () -> pair.stateOf("b"));
            System.out.println("NetnsFailoverIT (partition): from the drop rules to the first write served through B's"
                    + " proxy: " + firstWrite + " ms (lease " + LEASE_SECONDS + " s)");
            Map<Integer, String> gtids = pair.gtids("a");
            pair.load.awaitAcknowledged(50);
            assertThat(pair.gtids("a")).as("A's shards wrote nothing after B's promotion").isEqualTo(gtids);
            assertThat(ProxyWrites.writeThrough(pair.proxy("a"), PASSWORD)).startsWith("1290");

            pair.net.heal("a");
            String named = ProxyWrites.awaitRefusal(pair.proxy("a"), PASSWORD, m -> m.contains("the primary is now"));
            System.out.println("NetnsFailoverIT (partition): A once it reaches etcd again: " + named);
            assertThat(named).contains("epoch 2").contains(pair.adminUrl("b"));
            assertThat(pair.gtids("a")).isEqualTo(gtids);
            pair.load.pause();
            pair.checkPrimary("b", 2);
            pair.load.resume();

            pair.event("A rejoins");
            RejoinReport rejoined = pair.admin("a").rejoin(pair.adminUrl("b"), pair.token("b"));
            System.out.println("NetnsFailoverIT (partition): rejoin: " + rejoined);
            assertThat(rejoined.joined()).as(rejoined.toString()).isTrue();
            pair.awaitStandby("a");
            pair.load.awaitAcknowledged(100);

            // Host B, now the primary, dies: every process in its namespace SIGKILLed. A takes over.
            pair.cpu.sample();
            lost = pair.event("every process of host B killed");
            pair.load.outageBegins();
            int killed = pair.net.killAll("b");
            pair.retarget("a");
            firstWrite = ProxyWrites.awaitFirstWrite(pair.proxy("a"), PASSWORD, lost, () -> pair.stateOf("a"));
            System.out.println("NetnsFailoverIT (kill): from SIGKILL of the " + killed + " processes of host B to the"
                    + " first write served through A's proxy: " + firstWrite + " ms (lease " + LEASE_SECONDS + " s)");
            pair.finishLoad("partition, rejoin, kill");
            pair.checkPrimary("a", 3);
            pair.finishTpcc("partition, rejoin, kill", "a");
        }
    }

    /** Host A, the primary, dies under the load: every process in its namespace SIGKILLed. B takes over. */
    @Test
    void theStandbyTakesOverWhenEveryProcessOfThePrimaryHostIsKilled() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("standby.netns.all"), "the namespace failover cases run with"
                + " -Dstandby.netns.all");
        try (Pair pair = Pair.start("kill", TPCC)) {
            pair.cpu.sample();
            long lost = pair.event("every process of host A killed");
            pair.load.outageBegins();
            int killed = pair.net.killAll("a");
            pair.retarget("b");
            long firstWrite = ProxyWrites.awaitFirstWrite(pair.proxy("b"), PASSWORD, lost, () -> pair.stateOf("b"));
            System.out.println("NetnsFailoverIT (kill A): from SIGKILL of the " + killed + " processes of host A to the"
                    + " first write served through B's proxy: " + firstWrite + " ms (lease " + LEASE_SECONDS + " s)");
            pair.finishLoad("kill A");
            pair.checkPrimary("b", 2);
            pair.finishTpcc("kill A", "b");
        }
    }

    /** Hosts A, B, e0..e2; A the primary with the bank under transfers, B its standby in sync; etcd in e0..e2. */
    static final class Pair implements AutoCloseable { // package-private for NetnsSwitchoverIT (branch netswitch)
        final Path work;
        /** The case's name: the daemons' logs are kept under it. */
        String name;
        final NetnsHosts net;
        EtcdCluster etcd;
        CleaveTestHome a;
        Path bRoot;
        final Map<String, Process> daemons = new TreeMap<>();
        BankTransfers load;
        /** TPC-C beside the transfers, or null; its events: what happened when (System.nanoTime()). */
        MovableTpcc tpcc;
        OthersCpu cpu;
        final Map<Long, String> events = new TreeMap<>();

        private Pair(Path work, NetnsHosts net) {
            this.work = work;
            this.net = net;
        }

        static Pair start(String name) throws Exception {
            return start(name, false);
        }

        /** With TPC-C terminals (loaded before B is seeded) beside the transfers when {@code withTpcc}. */
        static Pair start(String name, boolean withTpcc) throws Exception {
            NetnsHosts.assumeUsable();
            assertThat(CleaveJar.JAR).as("cleave.jar is built by 'mvn package'").exists();
            Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-netns-", SEARCHABLE);
            List<String> hosts = new ArrayList<>(List.of("a", "b"));
            hosts.addAll(ETCD_HOSTS);
            Pair pair = new Pair(work, NetnsHosts.create(hosts, 2));
            try {
                pair.name = name;
                pair.begin(name, withTpcc);
                return pair;
            } catch (Exception | AssertionError e) {
                pair.close();
                throw e;
            }
        }

        private void begin(String name, boolean withTpcc) throws Exception {
            etcd = EtcdCluster.startIn(net, ETCD_HOSTS, Files.createDirectory(work.resolve("etcd")));
            String cluster = "netns-" + name + "-" + ProcessHandle.current().pid();
            String sharding = StandbyIT.sharding(SHARDS);
            if (withTpcc) {
                sharding = sharding.replace("  tables:\n", TpccSharding.keyspace(SHARDS) + "  tables:\n")
                        + TpccSharding.tables();
            }
            a = CleaveTestHome.builder().shards(SHARDS)
                    .proxyUsers("  users:\n    - name: root\n      mysql_native_password: \"" + nativeHash(PASSWORD) + "\"\n")
                    .extraYaml(sharding + EtcdCluster.yaml(etcd.urls(), cluster, LEASE_SECONDS))
                    .serverOption("log_slave_updates", "ON").create();
            String host = net.address("a");
            String config = Files.readString(a.configFile())
                    .replaceFirst("  base_port: [0-9]+\n", "  base_port: " + BASE_PORT + "\n  bind_address: " + host + "\n")
                    .replaceFirst("proxy:\n  listen: 127\\.0\\.0\\.1:[0-9]+\n", "proxy:\n  listen: " + host + ":" + PROXY_PORT + "\n")
                    .replace("admin:\n  port: 0\n", "admin:\n  listen: " + host + ":" + ADMIN_PORT + "\n");
            Files.writeString(a.configFile(), config);
            Path aLog = work.resolve("a.log");
            Process up = CleaveJar.start(net.inHost("a", CleaveJar.upCommand(a.root(), a.configFile())), aLog);
            daemons.put("a", up);
            try (var c = CleaveJar.awaitProxy(proxy("a"), PASSWORD, up, aLog, "")) {
                BankTransfers.create(c, SHAPE);
                if (withTpcc) {
                    try (var s = c.createStatement()) {
                        s.execute("CREATE DATABASE tpcc");
                    }
                }
            }
            if (withTpcc) {
                loadTpcc();
            }
            CleaveJar.awaitAdmin(() -> java.util.Optional.of(admin("a")), up, aLog);

            load = new BankTransfers(SHAPE, proxy("a"), PASSWORD, 10_000, 29, new int[] {1, 150});
            load.start(2);
            load.awaitAcknowledged(30);

            // cleave standby, run in host B: seeds B from a backup at one cut, its replicas connect to A's address.
            bRoot = work.resolve("standby");
            String b = net.address("b");
            NetnsHosts.Result seeded = net.run("b", CleaveJar.command("standby", "--primary", adminUrl("a"),
                    "--primary-token-file", a.home().adminTokenFile().toString(), "--via", work.resolve("seed").toString(),
                    "--home", bRoot.toString(), "--base-port", String.valueOf(BASE_PORT), "--bind-address", b,
                    "--admin-listen", b + ":" + ADMIN_PORT, "--proxy-listen", b + ":" + PROXY_PORT));
            System.out.println("NetnsFailoverIT: cleave standby in B:\n" + seeded.out());
            assertThat(seeded.code()).as(seeded.out()).isZero();
            Matcher m = Pattern.compile("--config (\\S+)").matcher(seeded.out());
            assertThat(m.find()).as(seeded.out()).isTrue();
            Path bLog = work.resolve("b.log");
            Process bUp = CleaveJar.start(net.inHost("b", CleaveJar.upCommand(bRoot, Path.of(m.group(1)))), bLog);
            daemons.put("b", bUp);
            CleaveJar.awaitAdmin(() -> java.util.Optional.of(admin("b")), bUp, bLog);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (!admin("a").standby().semiSync()
                    || !admin("a").standby().shards().stream().allMatch(s -> s.semiSyncClients() == 1)) {
                assertThat(System.nanoTime()).as("A waits for B's acknowledgements within 90 s").isLessThan(deadline);
                Thread.sleep(100);
            }
            CoordinationReport seen = awaitCoordination("b", r -> r.state() == PairState.STANDBY && r.primary() != null);
            assertThat(seen.epoch()).isEqualTo(1);
            assertThat(seen.primary().admin()).as("etcd names A's admin URL on A's address").isEqualTo(adminUrl("a"));
            assertThat(admin("a").status().coordination().holdsLease()).as("A holds the primary's lease").isTrue();
            load.awaitAcknowledged(150);
            cpu = new OthersCpu(this::ourPids);
            if (withTpcc) {
                tpcc = MovableTpcc.start(proxy("a"), PASSWORD, SHARDS, TPCC_TERMINALS);
                tpcc.awaitServing(60);
            }
            event("B in sync, the load running");
        }

        /**
         * One TPC-C warehouse per shard, loaded straight into A's shards from the test's namespace (an account for its
         * address made for the load and dropped after): through the proxy it would take minutes.
         */
        private void loadTpcc() throws Exception {
            String loader = "'tpcc_load'@'" + net.testAddress() + "'";
            for (int s = 0; s < SHARDS; s++) {
                shards("a").rows(s, "CREATE USER " + loader + " IDENTIFIED BY 'load-pw'; GRANT ALL ON tpcc.* TO " + loader);
            }
            List<javax.sql.DataSource> targets = new ArrayList<>();
            for (int s = 0; s < SHARDS; s++) {
                targets.add(new io.cleave.bench.jdbc.JdbcTarget("jdbc:mysql://" + net.address("a") + ":" + (BASE_PORT + s)
                        + "/tpcc?sslMode=DISABLED&allowPublicKeyRetrieval=true&rewriteBatchedStatements=true",
                        "tpcc_load", "load-pw"));
            }
            long started = System.nanoTime();
            TpccSharding.loadOneWarehousePerShard(targets);
            System.out.println("NetnsFailoverIT: TPC-C loaded, " + SHARDS + " warehouses, in "
                    + (System.nanoTime() - started) / 1_000_000 + " ms");
            for (int s = 0; s < SHARDS; s++) {
                shards("a").rows(s, "DROP USER " + loader);
            }
        }

        /** Marks what happens now, for the TPC-C gaps printed at the end; returns the time. */
        long event(String what) {
            long now = System.nanoTime();
            events.put(now, what);
            return now;
        }

        /** The test's JVM and every process of every host. */
        private List<Long> ourPids() {
            List<Long> pids = new ArrayList<>(List.of(ProcessHandle.current().pid()));
            for (String host : List.of("a", "b")) {
                pids.addAll(net.pids(host));
            }
            ETCD_HOSTS.forEach(h -> pids.addAll(net.pids(h)));
            return pids;
        }

        /** The clients, transfers and TPC-C, go to {@code host}'s proxy from now on. */
        void retarget(String host) {
            load.retarget(proxy(host));
            if (tpcc != null) {
                tpcc.retarget(proxy(host));
            }
        }

        /**
         * Stops TPC-C, if it ran, and prints what it did after each event: the longest time without a completed
         * transaction, tpmC, errors, others' CPU. Asserted: its errors were only cut connections and the fenced
         * primary's refusals (none at all when {@code noErrors}), and its conditions hold through {@code primary}'s
         * proxy.
         */
        void finishTpcc(String test, String primary) throws Exception {
            finishTpcc(test, primary, false);
        }

        void finishTpcc(String test, String primary, boolean noErrors) throws Exception {
            if (tpcc == null) {
                return;
            }
            var run = tpcc.stop();
            long end = System.nanoTime();
            List<Long> at = new ArrayList<>(events.keySet());
            StringBuilder gaps = new StringBuilder();
            for (int i = 0; i < at.size(); i++) {
                long until = i + 1 < at.size() ? at.get(i + 1) : end;
                gaps.append("\n  ").append(events.get(at.get(i))).append(": TPC-C's longest stand-still after it ")
                        .append(tpcc.longestGapMillis(at.get(i), until)).append(" ms");
            }
            System.out.println("NetnsFailoverIT (" + test + "), " + SHARDS + " shards, " + TPCC_TERMINALS + " terminals: "
                    + MovableTpcc.summary(run) + "; " + cpu.report() + gaps);
            if (noErrors) {
                assertThat(run.errors()).as("TPC-C's errors").isEmpty();
            } else {
                assertThat(run.errors()).as("TPC-C's errors other than cut connections and the fence's refusals")
                        .allMatch(e -> MovableTpcc.lostConnection(e) || MovableTpcc.fenced(e));
            }
            assertThat(run.transaction(io.cleave.bench.tpcc.txn.TransactionType.NEW_ORDER).completed()).isPositive();
            checkTpcc(primary);
            for (int s = 0; s < SHARDS; s++) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (!shards(primary).rows(s, "XA RECOVER").isEmpty() && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                assertThat(shards(primary).rows(s, "XA RECOVER")).as("branches prepared on %s's shard %d with TPC-C"
                        + " stopped", primary, s).isEmpty();
            }
        }

        /** TPC-C's consistency conditions 1-4 hold on every warehouse, read through {@code host}'s proxy. */
        void checkTpcc(String host) throws Exception {
            var proxy = new io.cleave.bench.jdbc.JdbcTarget("jdbc:mysql://" + proxy(host)
                    + "/tpcc?sslMode=DISABLED&allowPublicKeyRetrieval=true", "root", PASSWORD);
            assertThat(ConsistencyCheck.check(List.of(proxy), SHARDS)).as("TPC-C's conditions through %s's proxy", host)
                    .isEmpty();
        }

        String proxy(String host) {
            return net.address(host) + ":" + PROXY_PORT;
        }

        String adminUrl(String host) {
            return "http://" + net.address(host) + ":" + ADMIN_PORT;
        }

        CleaveHome home(String host) {
            return host.equals("a") ? a.home() : new CleaveHome(bRoot);
        }

        String token(String host) throws Exception {
            return Files.readString(home(host).adminTokenFile()).trim();
        }

        AdminClient admin(String host) {
            try {
                return AdminClient.remote(adminUrl(host), token(host));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }

        String stateOf(String host) {
            try {
                return admin(host).status().coordination() + "; " + admin(host).status().proxy();
            } catch (Exception e) {
                return "no answer: " + e;
            }
        }

        CoordinationReport awaitCoordination(String host, Predicate<CoordinationReport> condition) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            CoordinationReport last = null;
            while (System.nanoTime() < deadline) {
                try {
                    last = admin(host).status().coordination();
                } catch (java.io.IOException e) {
                    last = null;
                }
                if (last != null && condition.test(last)) {
                    return last;
                }
                Thread.sleep(50);
            }
            throw new AssertionError(host + "'s coordination never got there: " + last);
        }

        /**
         * Stops the clients once they wrote through the new primary: during the outage, to its end, they may only have
         * lost their connections or been refused by the fenced primary (1290), or, once it rejoined as a standby, by
         * its port, which relays to the new primary's proxy and refuses connections (2003, naming why) until it
         * learns where that listens. The outage lasts until they stop: a client left on the cut-off primary learns so
         * only at its socket timeout (10 s), maybe after the new primary served others.
         */
        void finishLoad(String test) throws Exception {
            load.awaitAcknowledged(50);
            load.close();
            System.out.println("NetnsFailoverIT (" + test + "): " + load.summary());
            assertThat(load.errors()).as("errors clients saw other than lost connections and the fenced primary's refusals")
                    .allSatisfy(e -> assertThat(e).satisfiesAnyOf(
                            fenced -> assertThat(fenced).contains("1290").contains("fenced"),
                            relay -> assertThat(relay).startsWith("connecting: 2003").contains("this Cleave home is a standby")));
        }

        /** {@code host} alone is the primary, at {@code epoch}, holding the lease, with every acknowledged transfer. */
        void checkPrimary(String host, long epoch) throws Exception {
            CoordinationReport r = awaitCoordination(host, c -> c.state() != PairState.PROMOTING);
            assertThat(r.state()).isEqualTo(PairState.PRIMARY);
            assertThat(r.epoch()).isEqualTo(epoch);
            assertThat(r.holdsLease()).isTrue();
            assertThat(r.primary().admin()).isEqualTo(adminUrl(host));
            StandbyReport standby = admin(host).standby();
            assertThat(standby.role()).isEqualTo(HostRole.PRIMARY);
            assertThat(standby.epoch()).as("standby.json mirrors etcd's epoch").isEqualTo(epoch);
            try {
                PromotedHome.servesEveryAcknowledgedTransfer(shards(host), proxy(host), PASSWORD, load, SHAPE);
            } catch (AssertionError e) {
                // For a failure's reader: the branches left prepared, whole (the check sees their first column).
                for (int s = 0; s < SHARDS; s++) {
                    System.out.println("NetnsFailoverIT: " + host + "'s shard " + s + ", XA RECOVER:\n" + sql(host, s,
                            "XA RECOVER FORMAT='SQL'; SELECT 'the decisions:'; SELECT * FROM cleave.decisions").out());
                }
                throw e;
            }
            if (tpcc != null) {
                checkTpcc(host); // under TPC-C: each warehouse is read in one snapshot of its shard
            }
        }

        /**
         * {@code host} is fenced without the lease, and its shards wrote nothing since {@code gtids}. Each is read-only,
         * or else its commits wait for the lost standby's acknowledgement, which never comes: a commit that was waiting
         * when the link went down keeps {@code SET GLOBAL read_only} waiting behind it (the fence's second line, tried
         * again until it takes), and every later commit queues behind it too; the status then names the shard.
         */
        void checkFenced(String host, Map<Integer, String> gtids) throws Exception {
            CoordinationReport r = awaitCoordination(host, c -> c.state() == PairState.SUPERSEDED
                    || c.state() == PairState.FENCED);
            assertThat(r.holdsLease()).as("one lease holder").isFalse();
            assertThat(gtids(host)).as("%s's shards wrote nothing after the new primary served", host).isEqualTo(gtids);
            for (int s = 0; s < SHARDS; s++) {
                List<String> readOnly = shards(host).rows(s, "SELECT @@read_only");
                List<String> waiting = shards(host).rows(s, "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS"
                        + " WHERE VARIABLE_NAME = 'RPL_SEMI_SYNC_MASTER_WAIT_SESSIONS'");
                System.out.println("NetnsFailoverIT: " + host + "'s shard " + s + ": read_only " + readOnly
                        + ", commits waiting for the standby " + waiting);
                if (!readOnly.equals(List.of("1")) && waiting.equals(List.of("0"))) {
                    // Seen under TPC-C (2 runs of 8, 11.4 and 10.11): neither, 20 s after the fence. For the reader:
                    // what the shard runs, what the status says, and what the daemon's threads do.
                    System.out.println("NetnsFailoverIT: " + host + "'s shard " + s + " neither read-only nor waiting;"
                            + " its sessions:\n" + sql(host, s, "SELECT ID, USER, COMMAND, TIME, STATE, LEFT(INFO, 100)"
                            + " FROM information_schema.PROCESSLIST; XA RECOVER").out() + "status: "
                            + admin(host).status().coordination().shardsReadOnly() + "\n" + diagnosis(host));
                }
                assertThat(readOnly.equals(List.of("1")) || !waiting.equals(List.of("0")))
                        .as("%s's shard %d read-only, or its commits waiting for an acknowledgement", host, s).isTrue();
                if (!readOnly.equals(List.of("1"))) {
                    String pending = admin(host).status().coordination().shardsReadOnly();
                    System.out.println("NetnsFailoverIT: " + host + "'s status: " + pending);
                    assertThat(pending).as("%s's status names shard %d, where read_only has not taken", host, s)
                            .contains("read_only ON not set yet on").contains("shard " + s + " (");
                }
            }
        }

        void awaitStandby(String host) throws Exception {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            StandbyReport last = null;
            while (System.nanoTime() < deadline) {
                last = admin(host).standby();
                // The hosts' shards listen on their own addresses: replication_tls is required by default, and every
                // replica verifies the other host's shard certificate.
                if (last.role() == HostRole.STANDBY && last.shards().size() == SHARDS
                        && last.shards().stream().allMatch(s -> s.replicating() && "verified".equals(s.tls()))) {
                    return;
                }
                Thread.sleep(100);
            }
            throw new AssertionError(host + "'s replicas do not run over verified TLS: " + last);
        }

        /** Takes A's link down under the transfers, moves the clients to B's proxy and waits until B serves a write. */
        void takeALinkDownUntilBServes(String test) throws Exception {
            long lost = event("A's link down (" + test + ")");
            load.outageBegins();
            net.link("a", false);
            retarget("b");
            long firstWrite = ProxyWrites.awaitFirstWrite(proxy("b"), PASSWORD, lost, () -> stateOf("b"));
            System.out.println("NetnsFailoverIT (" + test + "): from A's link going down to the first write served through"
                    + " B's proxy: " + firstWrite + " ms (lease " + LEASE_SECONDS + " s)");
        }

        /**
         * For a failure's reader: the TCP sockets of {@code host}'s proxy port, seen from the host and from the test's
         * namespace, and the thread dump of its daemon.
         */
        String diagnosis(String host) {
            StringBuilder out = new StringBuilder();
            String filter = "( sport = :" + PROXY_PORT + " or dport = :" + PROXY_PORT + " )";
            out.append("sockets in ").append(host).append(":\n")
                    .append(net.run(host, List.of("ss", "-tanio", filter)).out())
                    .append("sockets in the test's namespace:\n");
            try {
                Process ss = new ProcessBuilder("ss", "-tanio", filter).redirectErrorStream(true).start();
                out.append(new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                Process dump = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                        String.valueOf(daemons.get(host).pid()), "Thread.print").redirectErrorStream(true).start();
                out.append(host).append("'s daemon's threads:\n")
                        .append(new String(dump.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (java.io.IOException e) {
                out.append("(could not run: ").append(e.getMessage()).append(")\n");
            }
            return out.toString();
        }

        /** The commits on {@code host}'s shard waiting for the standby's acknowledgement. */
        long waitingCommits(String host, int shard) throws Exception {
            return Long.parseLong(shards(host).rows(shard, "SELECT VARIABLE_VALUE FROM information_schema.GLOBAL_STATUS"
                    + " WHERE VARIABLE_NAME = 'RPL_SEMI_SYNC_MASTER_WAIT_SESSIONS'").get(0));
        }

        /** Each shard's gtid_binlog_pos on {@code host}. */
        Map<Integer, String> gtids(String host) throws Exception {
            Map<Integer, String> out = new TreeMap<>();
            for (int s = 0; s < SHARDS; s++) {
                out.put(s, shards(host).rows(s, "SELECT @@gtid_binlog_pos").get(0));
            }
            return out;
        }

        /**
         * The shards of {@code host} through the mariadb client run inside that host, over its loopback: the shard
         * account is bound to loopback, and the test's namespace is another host. Each row whole (a single column's
         * value alone), so XA RECOVER's rows name their branches.
         */
        PromotedHome.ShardSql shards(String host) throws Exception {
            return (shard, sql) -> {
                NetnsHosts.Result r = sql(host, shard, sql);
                assertThat(r.code()).as("%s on %s's shard %d: %s", sql, host, shard, r.out()).isZero();
                return r.out().lines().filter(l -> !l.isEmpty()).toList();
            };
        }

        /** {@code sql} on {@code host}'s shard through the mariadb client run inside that host: its whole output. */
        NetnsHosts.Result sql(String host, int shard, String sql) throws Exception {
            String secret = Files.readString(home(host).shardSecretFile()).trim();
            return net.run(host, List.of("mariadb", "-h127.0.0.1", "-P" + (BASE_PORT + shard),
                    "-u" + io.cleave.manager.instance.ShardAccount.USER, "-p" + secret, "-N", "-B", "-e", sql));
        }

        @Override
        public void close() throws Exception {
            if (tpcc != null) {
                tpcc.close();
            }
            if (load != null) {
                load.close();
            }
            // The daemons' logs outlive the run, for a failure's reader.
            Path logs = Files.createDirectories(Path.of("target", "netns-logs"));
            for (String host : daemons.keySet()) {
                Path log = work.resolve(host + ".log");
                if (Files.exists(log)) {
                    Files.copy(log, logs.resolve(name + "-" + host + ".log"),
                            java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
            net.close(); // every process of every host: daemons, shards, etcd members
            for (Process p : daemons.values()) {
                p.destroyForcibly();
                p.waitFor(30, TimeUnit.SECONDS);
            }
            if (etcd != null) {
                etcd.close();
            }
            if (a != null) {
                a.close();
            }
            CleaveTestHome.deleteTree(work);
        }
    }

    /** MySQL's mysql_native_password hash of {@code password}: '*' and the hex of SHA1(SHA1(password)). */
    static String nativeHash(String password) throws Exception {
        MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
        byte[] once = sha1.digest(password.getBytes(StandardCharsets.UTF_8));
        return "*" + HexFormat.of().withUpperCase().formatHex(MessageDigest.getInstance("SHA-1").digest(once));
    }
}
