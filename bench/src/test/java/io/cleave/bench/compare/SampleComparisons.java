package io.cleave.bench.compare;

import io.cleave.bench.measure.LoadAverage;
import io.cleave.bench.tpcc.run.LatencySummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Made-up measurements shaped like real ones, for tests of what is computed and written from them. */
final class SampleComparisons {
    static final Configuration DIRECT = Configuration.direct();
    static final Configuration PROXY_1 = Configuration.proxy(1);
    static final Configuration PROXY_2 = Configuration.proxy(2);

    private SampleComparisons() {
    }

    /** tps 1000 +- 10 direct, 800 through the proxy; 10 queries and 100 us of proxy CPU per transaction. */
    static Measurement measurement(Configuration c, int round, double tps) {
        double seconds = 10;
        long transactions = Math.round(tps * seconds);
        List<ThroughputPoint> series = new ArrayList<>();
        for (int t = 1; t <= 10; t++) {
            series.add(new ThroughputPoint(t, tps + (t % 3) - 1));
        }
        WorkloadResult result = new WorkloadResult(seconds, transactions, transactions * 10, tps,
            new LatencySummary(1, 2, 3, 4, 9, 1.5), series, round == 1 ? 2 : 0, null);
        boolean proxied = c.access() == Access.PROXY;
        return new Measurement(c.label(), c.shards(), c.access(), round, "2026-01-01T00:00:0" + round + "Z",
            new LoadAverage(0.5 + round, 1, 1), new LoadAverage(1, 1, 1), result,
            proxied ? transactions * 100 : 1_000, transactions * 300, transactions * 10,
            proxied ? transactions * 11 : transactions * 10,
            // client 50 us per transaction; the host (2 cores x 10 s) was busy for that plus 2 s of other work
            transactions * 50, (proxied ? transactions * 100 : 1_000) + transactions * 350 + 2_000_000, 20_000_000);
    }

    static Comparison comparison() {
        List<Measurement> ms = new ArrayList<>();
        ms.add(measurement(DIRECT, 1, 1000));
        ms.add(measurement(PROXY_1, 1, 800));
        ms.add(measurement(PROXY_2, 1, 1200));
        ms.add(measurement(PROXY_2, 2, 1100));
        ms.add(measurement(PROXY_1, 2, 900));
        ms.add(measurement(DIRECT, 2, 1010));
        ms.add(measurement(DIRECT, 3, 990));
        ms.add(measurement(PROXY_1, 3, 820));
        ms.add(measurement(PROXY_2, 3, 1300));
        return new Comparison("oltp_point_select", "tps", List.of(DIRECT, PROXY_1, PROXY_2), ms);
    }

    static ComparisonSet set(String name) {
        Map<String, String> host = new LinkedHashMap<>();
        host.put("cores", "2");
        host.put("machine", "2 cores (Test CPU), 8.0 GiB RAM");
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("data", "4 tables x 1000 rows");
        return new ComparisonSet(name, "Sample comparison", "bench/cleave-bench.sh scaling --rounds 3",
            "2026-01-01T00:00:00Z", "2026-01-01T00:10:00Z", host, parameters, List.of(comparison()),
            List.of("1-shard home: 4,000 rows counted through the proxy, 4,000 on the shards directly"), true);
    }
}
