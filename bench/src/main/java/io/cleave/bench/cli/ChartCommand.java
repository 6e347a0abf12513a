package io.cleave.bench.cli;

import io.cleave.bench.report.ResultCharts;
import io.cleave.bench.report.ResultFiles;
import io.cleave.bench.tpcc.run.RunResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "chart", mixinStandardHelpOptions = true,
    description = "Combine several results.json files into one throughput chart and one latency chart.")
final class ChartCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "RESULT",
        description = "results.json files, or the --output directories of `tpcc run` that hold them.")
    List<Path> inputs;

    @Option(names = "--output", required = true, description = "Directory for throughput.png and latency.png.")
    Path output;

    @Override
    public Integer call() throws IOException {
        List<RunResult> results = new ArrayList<>();
        for (Path input : inputs) {
            Path file = Files.isDirectory(input) ? input.resolve(ResultFiles.RESULTS_JSON) : input;
            results.add(ResultFiles.readJson(file));
        }
        for (Path png : ResultCharts.write(results, output)) {
            System.out.println("wrote " + png.toAbsolutePath());
        }
        return 0;
    }
}
