package io.cleave.bench.cli;

import io.cleave.bench.compare.ComparisonSet;
import io.cleave.bench.compare.ResultWriter;
import io.cleave.bench.crossshard.CrossShardFiles;
import io.cleave.bench.crossshard.CrossShardSet;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "report", mixinStandardHelpOptions = true,
    description = "Draw the charts and tables of recorded comparisons again from their measurements.json, without measuring.")
final class ReportCommand implements Callable<Integer> {
    @Parameters(arity = "1..*", paramLabel = "DIR", description = "Output directories of proxy-overhead, scaling or cross-shard.")
    List<Path> directories;

    @Option(names = "--doc", description = "Markdown document whose generated sections are replaced, e.g. bench/RESULTS.md.")
    Path doc;

    @Override
    public Integer call() throws Exception {
        for (Path dir : directories) {
            if (CrossShardFiles.holdsCrossShard(dir)) {
                CrossShardSet set = CrossShardFiles.readJson(dir);
                CrossShardFiles.render(set, dir, doc);
                System.out.println("rendered " + set.name() + " in " + dir);
                continue;
            }
            ComparisonSet set = ResultWriter.readJson(dir);
            ResultWriter.render(set, dir, doc);
            System.out.println("rendered " + set.name() + " in " + dir);
        }
        return 0;
    }
}
