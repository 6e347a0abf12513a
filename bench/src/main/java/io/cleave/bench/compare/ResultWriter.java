package io.cleave.bench.compare;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A comparison set on disk: measurements.json (every run, enough to draw everything again),
 * summary.md (the table) and the PNG charts in one directory; optionally the same table spliced
 * into a results document, with chart links relative to it.
 */
public final class ResultWriter {
    public static final String MEASUREMENTS_JSON = "measurements.json";
    public static final String SUMMARY_MD = "summary.md";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ResultWriter() {
    }

    public static void writeJson(ComparisonSet set, Path directory) throws IOException {
        Files.createDirectories(directory);
        JSON.writeValue(directory.resolve(MEASUREMENTS_JSON).toFile(), set);
    }

    public static ComparisonSet readJson(Path directory) throws IOException {
        Path file = Files.isDirectory(directory) ? directory.resolve(MEASUREMENTS_JSON) : directory;
        return JSON.readValue(file.toFile(), ComparisonSet.class);
    }

    /** Draws the charts and writes summary.md; with a document, splices the table into its section. */
    public static void render(ComparisonSet set, Path directory, Path document) throws IOException {
        List<String> charts = ComparisonCharts.write(set, directory);
        Files.writeString(directory.resolve(SUMMARY_MD), SummaryTable.render(set, charts, ""));
        if (document != null) {
            Path docDir = document.toAbsolutePath().getParent();
            String prefix = docDir.relativize(directory.toAbsolutePath()).toString().replace('\\', '/');
            ResultsDocument.splice(document, set.name(), SummaryTable.render(set, charts, prefix.isEmpty() ? "" : prefix + "/"));
        }
    }
}
