package io.cleave.bench.crossshard;

import java.util.List;
import java.util.Map;

/**
 * Everything the cross-shard command measured, as written to measurements.json: enough to render
 * the tables and the chart again. checks are the data checks run afterwards, one line each.
 */
public record CrossShardSet(String name, String title, String command, String startedAt, String finishedAt,
                            Map<String, String> host, Map<String, String> parameters,
                            List<TransferMeasurement> transfers, List<TpccMeasurement> tpcc, List<String> checks,
                            boolean checksPassed) {
}
