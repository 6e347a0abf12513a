package io.cleave.e2e.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.cleave.bench.cli.BenchCommand;
import io.cleave.bench.compare.Access;
import io.cleave.bench.compare.Comparison;
import io.cleave.bench.compare.ComparisonSet;
import io.cleave.bench.compare.Measurement;
import io.cleave.bench.compare.ResultWriter;
import io.cleave.bench.crossshard.CrossShardFiles;
import io.cleave.bench.crossshard.CrossShardSet;
import io.cleave.bench.crossshard.TransferMeasurement;
import io.cleave.bench.tpcc.txn.TransactionType;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import io.cleave.e2e.support.TestServer;
import picocli.CommandLine;

/**
 * The benchmark harness end to end, as a person runs it, on seconds and tiny data: it starts
 * Cleave homes with the real binary, drives them, meters the processes, writes the table and the
 * charts, and checks the data afterwards. Figures are not judged here; only that each was taken.
 */
class BenchHarnessIT {
    private static final Path CLEAVE_JAR = Path.of(System.getProperty("cleave.jar", "../manager/target/cleave.jar"));
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @TempDir
    Path dir;

    /**
     * TPC-C through the proxy over two shards, one warehouse each, so the remote order lines and
     * payments of the standard mix cross shards; then consistency conditions 1-4 read from both
     * shards directly must hold.
     */
    @Test
    void tpccOverTwoShardsThroughTheProxyLeavesTheDataConsistent() throws IOException {
        Path out = dir.resolve("scaling-tpcc");
        int exit = bench("scaling", "--workload", "tpcc", "--shards", "2", "--no-direct", "--warehouses", "2",
            "--connections", "4", "--rounds", "1", "--duration", "2s", "--warmup", "0s", "--report-interval", "1s",
            "--buffer-pool", "128M", "--cleave-jar", CLEAVE_JAR.toString(), "--server-binary", TestServer.binary(), "--output", out.toString());
        assertThat(exit).as("exit code of scaling (1: a data check failed)").isZero();

        ComparisonSet set = ResultWriter.readJson(out);
        assertThat(set.checksPassed()).isTrue();
        assertThat(set.checks()).containsExactly(
            "2-shard home: TPC-C consistency conditions 1-4 hold on all 2 warehouses, each on exactly one shard");
        Comparison tpcc = set.comparisons().get(0);
        assertThat(tpcc.workload()).isEqualTo("tpcc");
        assertThat(tpcc.measurements()).hasSize(1);
        Measurement m = tpcc.measurements().get(0);
        assertThat(m.access()).isEqualTo(Access.PROXY);
        assertThat(m.shards()).isEqualTo(2);
        assertThat(m.result().throughput()).isPositive();
        assertThat(m.result().tpcc().transaction(TransactionType.NEW_ORDER).completed()).isPositive();
        assertThat(m.result().tpcc().transaction(TransactionType.PAYMENT).completed()).isPositive();
        assertThat(m.result().errors()).isZero();
        assertThat(m.result().series()).isNotEmpty();
        assertMetered(m);

        assertThat(Files.readString(out.resolve("summary.md"))).contains("| tpcc | 2 shards, proxy |");
        assertIsPng(out.resolve("scaling-tpcc-throughput.png"));
        assertIsPng(out.resolve("scaling-tpcc-latency.png"));
        assertIsPng(out.resolve("scaling-tpcc-tpcc-latency-by-type.png"));
    }

    /** sysbench on one shard, directly and through the proxy, alternating; the rows agree both ways afterwards. */
    @Test
    void sysbenchDirectAndThroughTheProxy() throws IOException {
        assumeAllHarnessModes();
        Path out = dir.resolve("proxy-overhead");
        Path doc = dir.resolve("RESULTS.md");
        Files.writeString(doc, "# Results\n\n<!-- BEGIN cleave-bench:proxy-overhead -->\n<!-- END cleave-bench:proxy-overhead -->\n");
        int exit = bench("proxy-overhead", "--workloads", "oltp_point_select", "--tables", "1", "--table-size", "500",
            "--threads", "2", "--rounds", "1", "--duration", "2s", "--warmup", "0s", "--buffer-pool", "128M",
            "--cleave-jar", CLEAVE_JAR.toString(), "--server-binary", TestServer.binary(), "--output", out.toString(), "--doc", doc.toString());
        assertThat(exit).isZero();

        ComparisonSet set = ResultWriter.readJson(out);
        assertThat(set.checks()).containsExactly(
            "1-shard home: 500 sbtest rows counted through the proxy, 500 on the shards directly");
        Comparison c = set.comparisons().get(0);
        // Direct, the HAProxy relay and the proxy, with the client over TCP and then a Unix socket.
        assertThat(c.measurements()).extracting(Measurement::access).containsExactly(Access.DIRECT, Access.RELAY,
            Access.PROXY, Access.DIRECT, Access.RELAY, Access.PROXY);
        for (Measurement m : c.measurements()) {
            assertThat(m.result().transactions()).isPositive();
            assertThat(m.result().queries()).isEqualTo(m.result().transactions());   // one SELECT per event
            assertThat(m.result().latency().p50()).isPositive();
            assertThat(m.shardCpuMicros()).isPositive();
            assertThat(m.shardStatements()).isGreaterThanOrEqualTo(m.result().queries());
        }
        assertMetered(c.measurements().get(1));   // the relay: haproxy's CPU
        assertMetered(c.measurements().get(2));
        assertThat(Files.readString(doc)).contains("| oltp_point_select | Cleave proxy, client over TCP |",
            "| oltp_point_select | HAProxy relay, client over Unix socket |",
            "](proxy-overhead/proxy-overhead-throughput.png)");
        assertIsPng(out.resolve("proxy-overhead-throughput.png"));
    }

    /**
     * k-shard transfers over two shards through the proxy, k = 1 and 2: a two-shard transaction
     * starts one XA branch, a one-shard one none, and afterwards the balances still add up.
     */
    @Test
    void crossShardTransfersCommitOnTheShardsTheyNameAndKeepTheTotal() throws IOException {
        assumeAllHarnessModes();
        Path out = dir.resolve("cross-shard");
        Path doc = dir.resolve("RESULTS.md");
        Files.writeString(doc, "# Results\n\n<!-- BEGIN cleave-bench:cross-shard -->\n<!-- END cleave-bench:cross-shard -->\n");
        int exit = bench("cross-shard", "--shards", "2", "--k", "1,2", "--threads", "2", "--accounts-per-shard", "200",
            "--tpcc-rounds", "0", "--rounds", "1", "--duration", "2s", "--warmup", "0s", "--buffer-pool", "128M",
            "--cleave-jar", CLEAVE_JAR.toString(), "--server-binary", TestServer.binary(), "--output", out.toString(), "--doc", doc.toString());
        assertThat(exit).as("exit code of cross-shard (1: a data check failed)").isZero();

        CrossShardSet set = CrossShardFiles.readJson(out);
        assertThat(set.checksPassed()).isTrue();
        assertThat(set.checks()).contains("accounts: each of the 2 shards holds exactly its own 200 ids",
            "accounts: sum of balances 400,000 on the shards directly, 400,000 through the proxy (400 rows); "
                + "opening total 400,000");
        assertThat(set.transfers()).extracting(TransferMeasurement::k).containsExactly(1, 2);
        for (TransferMeasurement t : set.transfers()) {
            assertThat(t.clients().committed()).isPositive();
            assertThat(t.clients().failed()).isZero();
            assertThat(t.clients().commit().p50()).isPositive();
            assertThat(t.clients().transaction().p50()).isGreaterThanOrEqualTo(t.clients().commit().p50());
            assertThat(t.xaStartsPerTransaction()).isEqualTo(t.k() - 1.0);
            assertMetered(t.metered());
        }
        assertThat(set.tpcc()).isEmpty();
        assertThat(Files.readString(doc)).contains("| 2 | ", "](cross-shard/cross-shard-commit-latency.png)");
        assertIsPng(out.resolve("cross-shard-commit-latency.png"));
    }

    /** A run through the proxy was metered: the daemon and the shards used CPU, statements were counted on both sides. */
    /**
     * The default run drives the harness once (TPC-C, the mode with the most parts: loading, the mix, charts,
     * the consistency check); the other modes share its starting, metering and writing and run with
     * -Dbench.harness.all=true.
     */
    private static void assumeAllHarnessModes() {
        Assumptions.assumeTrue(Boolean.getBoolean("bench.harness.all"), "a harness mode the default run leaves out"
            + " (-Dbench.harness.all=true runs it)");
    }

    private static void assertMetered(Measurement m) {
        assertThat(m.proxyCpuMicros()).isPositive();
        assertThat(m.shardCpuMicros()).isPositive();
        assertThat(m.clientStatements()).isPositive();
        assertThat(m.shardStatements()).isPositive();
        assertThat(m.proxyMicrosPerQuery()).isPositive();
        assertThat(m.proxyMicrosPerTransaction()).isGreaterThanOrEqualTo(m.proxyMicrosPerQuery());
    }

    private static int bench(String... args) {
        StringWriter err = new StringWriter();
        CommandLine cmd = BenchCommand.commandLine();
        cmd.setErr(new PrintWriter(err, true));
        int exit = cmd.execute(args);
        assertThat(err.toString()).as("stderr of cleave-bench").doesNotContain("error:");
        return exit;
    }

    private static void assertIsPng(Path png) throws IOException {
        byte[] bytes = Files.readAllBytes(png);
        assertThat(Arrays.copyOf(bytes, 8)).isEqualTo(PNG_SIGNATURE);
    }
}
