package io.cleave.bench.crossshard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cleave.bench.compare.Access;
import io.cleave.bench.compare.Measurement;
import io.cleave.bench.compare.ThroughputPoint;
import io.cleave.bench.compare.WorkloadResult;
import io.cleave.bench.measure.LoadAverage;
import io.cleave.bench.tpcc.run.LatencySummary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CrossShardTableTest {
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @TempDir
    Path dir;

    /** k-shard transfers: COMMIT p50 of 1 ms x (1 + round / 10) for k=1, twice and three times that for k=2 and k=4. */
    static TransferMeasurement transfer(int k, int round) {
        double slow = 1 + round / 10.0;
        double commitFactor = k == 1 ? 1 : k == 2 ? 2 : 3;
        LatencySummary commit = new LatencySummary(commitFactor * slow, 0, 2 * commitFactor * slow,
            (k == 1 ? 4 : 10) * slow, 20, commitFactor);
        LatencySummary transaction = new LatencySummary(k + 2.0, 0, k + 4.0, k + 8.0, 30, k + 2.0);
        long committed = Math.round(10_000 / (k * slow));
        TransferResult clients = new TransferResult(k, 10, committed, k == 4 ? 1 : 0,
            k == 4 ? Map.of("1213", 1L) : Map.of(), transaction, commit, committed * k, 0);
        WorkloadResult result = new WorkloadResult(10, committed, -1, clients.tps(), transaction,
            List.<ThroughputPoint>of(), clients.failed(), null);
        Measurement metered = new Measurement("k=" + k, 4, Access.PROXY, round, "2026-01-01T00:00:00Z",
            new LoadAverage(1.5, 1, 1), new LoadAverage(2.5, 1, 1), result, committed * 100L * k,
            committed * 300L * k, committed * (k + 2), committed * (k + 2) + 2 * committed * (k - 1), 1_000_000,
            committed * 400L * k + 1_000_000 + 4_000_000, 20_000_000);
        return new TransferMeasurement(k, round, metered, clients, committed * (k - 1));
    }

    static List<TransferMeasurement> transfers() {
        List<TransferMeasurement> all = new ArrayList<>();
        int[][] order = {{1, 2, 4}, {4, 2, 1}, {1, 2, 4}};
        for (int round = 1; round <= 3; round++) {
            for (int k : order[round - 1]) {
                all.add(transfer(k, round));
            }
        }
        return all;
    }

    static TpccMeasurement tpcc() {
        WorkloadResult result = new WorkloadResult(30, 2_000, -1, 1_800, new LatencySummary(40, 0, 90, 150, 300, 50),
            List.of(new ThroughputPoint(5, 1700), new ThroughputPoint(10, 1900)), 0, null);
        Measurement metered = new Measurement("4 shards, proxy", 4, Access.PROXY, 1, "2026-01-01T00:10:00Z",
            new LoadAverage(3.0, 1, 1), new LoadAverage(3.0, 1, 1), result, 2_000 * 1_800L, 2_000 * 3_500L, 56_000,
            58_000, 500_000, 20_000_000, 60_000_000);
        return new TpccMeasurement(1, metered, 220, CrossShardShare.of(220, 2_000, Optional.empty()));
    }

    static CrossShardSet set() {
        Map<String, String> host = new LinkedHashMap<>();
        host.put("cores", "2");
        host.put("machine", "2 cores (Test CPU), 8.0 GiB RAM");
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("home", "4 shards");
        return new CrossShardSet("cross-shard", "Cross-shard transactions", "bench/cleave-bench.sh cross-shard --rounds 3",
            "2026-01-01T00:00:00Z", "2026-01-01T00:12:00Z", host, parameters, transfers(), List.of(tpcc()),
            List.of("accounts: sum of balances 40,000,000 on the shards directly"), true);
    }

    @Test
    void summariesTakeMediansAndPairTheCommitRatioByRound() {
        List<TransferSummary> s = TransferSummary.of(transfers());
        assertThat(s).extracting(TransferSummary::k).containsExactly(1, 2, 4);
        TransferSummary k1 = s.get(0);
        TransferSummary k2 = s.get(1);
        TransferSummary k4 = s.get(2);
        assertThat(k1.rounds()).isEqualTo(3);
        assertThat(k1.commit().p50()).isCloseTo(1.2, within(1e-9));   // rounds 1.1, 1.2, 1.3
        assertThat(k1.tps().median()).isCloseTo(10_000 / 1.2 / 10, within(0.1));
        // Each round's k=2 COMMIT p50 is exactly twice k=1's of the same round, whatever the round's slowness.
        assertThat(k2.commitP50VsBaseline().min()).isCloseTo(2.0, within(1e-9));
        assertThat(k2.commitP50VsBaseline().max()).isCloseTo(2.0, within(1e-9));
        assertThat(k4.commitP50VsBaseline().median()).isCloseTo(3.0, within(1e-9));
        assertThat(k2.commitP99VsBaseline().median()).isCloseTo(2.5, within(1e-9));
        assertThat(k1.xaStartsPerTransaction().median()).isZero();
        assertThat(k4.xaStartsPerTransaction().median()).isCloseTo(3.0, within(1e-9));
        assertThat(k2.proxyMicrosPerTransaction().median()).isCloseTo(200, within(1e-9));
        assertThat(k4.failed()).isEqualTo(3);
        assertThat(k1.otherCpuPercent().median()).isCloseTo(20, within(1e-6));
    }

    @Test
    void tableHasOneRowPerKTheTpccRunTheShareSourceAndTheChecks() {
        String md = CrossShardTable.render(set(), List.of("cross-shard-commit-latency.png"), "results/cross-shard/");
        assertThat(md).contains("#### Cross-shard transactions", "Command: `bench/cleave-bench.sh cross-shard --rounds 3`",
            "Settings: home 4 shards.", "| 1 | 833 (769–909) | 3.00 / 5.00 / 9.00 | 1.20 / 2.40 / 4.80 | 1 | 1 | 0.00 (0.00–0.00) |",
            "| 2 | 417 (385–455) | 4.00 / 6.00 / 10.00 | 2.40 / 4.80 / 12.00 | 2.00 (2.00–2.00) (+100%) "
                + "| 2.50 (2.50–2.50) (+150%) | 1.00 (1.00–1.00) | 200 (200–200) | 600 (600–600) | 0 | 20 (20–20) % |",
            "| 4 | 208 (192–227) |", "| 3 | 20 (20–20) % | 1.5 (1.5–1.5) |",
            "| 1 | 1800 | 2000 | 11.0 % | 220 | 1800 | 3500 | 40.00 / 90.00 / 150.00 | 0 | 15 % | 3.0 |",
            "Com_xa_start", "counts twice", "+119%",
            "- accounts: sum of balances 40,000,000 on the shards directly",
            "![cross shard commit latency](results/cross-shard/cross-shard-commit-latency.png)");
        assertThat(md.lines().filter(l -> l.startsWith("| ") && !l.startsWith("| shards") && !l.startsWith("| TPC-C")))
            .hasSize(4);
    }

    @Test
    void resultsRoundTripAndRenderIntoAChartAndADocumentSection() throws IOException {
        Path out = dir.resolve("results/cross-shard");
        CrossShardFiles.writeJson(set(), out);
        assertThat(CrossShardFiles.holdsCrossShard(out)).isTrue();
        CrossShardSet again = CrossShardFiles.readJson(out);
        assertThat(again).isEqualTo(set());
        Path doc = dir.resolve("RESULTS.md");
        Files.writeString(doc, "# Results\n\nIntro.\n\n<!-- BEGIN cleave-bench:cross-shard -->\n"
            + "<!-- END cleave-bench:cross-shard -->\n\nAfter.\n");
        CrossShardFiles.render(again, out, doc);
        byte[] png = Files.readAllBytes(out.resolve("cross-shard-commit-latency.png"));
        assertThat(Arrays.copyOf(png, 8)).isEqualTo(PNG_SIGNATURE);
        assertThat(Files.readString(out.resolve("summary.md"))).contains("](cross-shard-commit-latency.png)");
        String text = Files.readString(doc);
        assertThat(text).startsWith("# Results\n\nIntro.\n\n<!-- BEGIN cleave-bench:cross-shard -->\n#### Cross-shard")
            .contains("](results/cross-shard/cross-shard-commit-latency.png)")
            .endsWith("<!-- END cleave-bench:cross-shard -->\n\nAfter.\n");
    }
}
