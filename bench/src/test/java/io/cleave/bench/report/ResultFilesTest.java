package io.cleave.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.cleave.bench.tpcc.run.RunResult;
import io.cleave.bench.tpcc.txn.TransactionType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultFilesTest {
    @TempDir
    Path dir;

    @Test
    void resultsJsonReadsBackEqual() throws IOException {
        RunResult result = SampleResults.of("direct", 12_345);
        Path json = dir.resolve("out/results.json");
        ResultFiles.writeJson(result, json);
        assertThat(ResultFiles.readJson(json)).isEqualTo(result);
    }

    @Test
    void throughputCsvHasOneRowPerInterval() throws IOException {
        RunResult result = SampleResults.of("direct", 6_000);
        Path csv = dir.resolve("throughput.csv");
        ResultFiles.writeThroughputCsv(result, csv);
        List<String> lines = Files.readAllLines(csv);
        assertThat(lines).hasSize(result.series().size() + 1);
        assertThat(lines.get(0)).isEqualTo("end_s,length_s,phase,tpmC,tps_new_order,tps_payment,tps_order_status,"
            + "tps_delivery,tps_stock_level,errors");
        assertThat(lines.get(1)).startsWith("-10.00,5.00,warmup,");
        assertThat(lines.get(lines.size() - 1)).startsWith("60.00,5.00,measure,");
    }

    @Test
    void tableShowsTpmCLatenciesAndErrors() {
        String table = ResultTable.render(SampleResults.of("direct", 6_000));
        assertThat(table).contains("tpmC 6000.0").contains("NewOrder").contains("StockLevel")
            .contains("p99 ms").contains("1062").contains("Duplicate entry").contains("{1213=12}");
        RunResult result = SampleResults.of("direct", 6_000);
        assertThat(ResultTable.progressLine(result.series().get(0), 0)).contains("warmup").contains("NO ");
        assertThat(result.transaction(TransactionType.NEW_ORDER).rolledBack()).isEqualTo(450);
    }
}
