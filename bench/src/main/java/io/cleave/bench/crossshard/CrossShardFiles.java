package io.cleave.bench.crossshard;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cleave.bench.compare.ResultWriter;
import io.cleave.bench.compare.ResultsDocument;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The cross-shard results on disk, laid out like the comparisons': measurements.json (every run),
 * summary.md (the tables) and the PNG chart in one directory; optionally the same text spliced
 * into a results document, with the chart link relative to it.
 */
public final class CrossShardFiles {
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private CrossShardFiles() {
    }

    public static void writeJson(CrossShardSet set, Path directory) throws IOException {
        Files.createDirectories(directory);
        JSON.writeValue(directory.resolve(ResultWriter.MEASUREMENTS_JSON).toFile(), set);
    }

    public static CrossShardSet readJson(Path directory) throws IOException {
        Path file = Files.isDirectory(directory) ? directory.resolve(ResultWriter.MEASUREMENTS_JSON) : directory;
        return JSON.readValue(file.toFile(), CrossShardSet.class);
    }

    /** Whether a results directory (or its measurements.json) was written by the cross-shard command. */
    public static boolean holdsCrossShard(Path directory) throws IOException {
        Path file = Files.isDirectory(directory) ? directory.resolve(ResultWriter.MEASUREMENTS_JSON) : directory;
        return JSON.readTree(file.toFile()).has("transfers");
    }

    /** Draws the chart and writes summary.md; with a document, splices the text into its section. */
    public static void render(CrossShardSet set, Path directory, Path document) throws IOException {
        List<String> charts = CrossShardCharts.write(set, directory);
        Files.writeString(directory.resolve(ResultWriter.SUMMARY_MD), CrossShardTable.render(set, charts, ""));
        if (document != null) {
            Path docDir = document.toAbsolutePath().getParent();
            String prefix = docDir.relativize(directory.toAbsolutePath()).toString().replace('\\', '/');
            ResultsDocument.splice(document, set.name(),
                CrossShardTable.render(set, charts, prefix.isEmpty() ? "" : prefix + "/"));
        }
    }
}
