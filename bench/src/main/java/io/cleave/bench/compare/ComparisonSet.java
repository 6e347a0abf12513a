package io.cleave.bench.compare;

import java.util.List;
import java.util.Map;

/**
 * Everything one comparison command measured, as written to measurements.json: enough to render
 * the tables and charts again without measuring. checks are the data checks run afterwards (e.g.
 * the TPC-C consistency conditions on every home), each one line.
 */
public record ComparisonSet(String name, String title, String command, String startedAt, String finishedAt,
                            Map<String, String> host, Map<String, String> parameters, List<Comparison> comparisons,
                            List<String> checks, boolean checksPassed) {
}
