package io.cleave.bench.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cleave.bench.tpcc.run.IntervalSample;
import io.cleave.bench.tpcc.run.RunResult;
import io.cleave.bench.tpcc.txn.TransactionType;
import java.io.IOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/** results.json (the whole result, read back by `tpcc chart`) and throughput.csv (the series). */
public final class ResultFiles {
    public static final String RESULTS_JSON = "results.json";
    public static final String THROUGHPUT_CSV = "throughput.csv";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ResultFiles() {
    }

    public static void writeJson(RunResult result, Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        JSON.writeValue(file.toFile(), result);
    }

    public static RunResult readJson(Path file) throws IOException {
        return JSON.readValue(file.toFile(), RunResult.class);
    }

    public static void writeThroughputCsv(RunResult result, Path file) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (Writer out = Files.newBufferedWriter(file)) {
            StringBuilder header = new StringBuilder("end_s,length_s,phase,tpmC");
            for (TransactionType type : TransactionType.values()) {
                header.append(",tps_").append(type.name().toLowerCase(Locale.ROOT));
            }
            out.write(header.append(",errors\n").toString());
            for (IntervalSample s : result.series()) {
                StringBuilder line = new StringBuilder()
                    .append(fmt(s.endSeconds())).append(',').append(fmt(s.lengthSeconds())).append(',')
                    .append(s.warmup() ? "warmup" : "measure").append(',').append(fmt(s.tpmC()));
                for (TransactionType type : TransactionType.values()) {
                    line.append(',').append(fmt(s.tps().getOrDefault(type, 0.0)));
                }
                out.write(line.append(',').append(s.errors()).append('\n').toString());
            }
        }
    }

    private static String fmt(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }
}
