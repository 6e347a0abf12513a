package io.cleave.bench.cli;

import io.cleave.bench.compare.ComparisonRunner;
import io.cleave.bench.compare.ComparisonSet;
import io.cleave.bench.compare.Dataset;
import io.cleave.bench.compare.ResultWriter;
import io.cleave.bench.measure.HostInfo;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Model.CommandSpec;

/** What the comparison commands share after measuring: the set on disk, the table on stdout, the exit code. */
final class ComparisonReporting {
    /** Exit code when the data checks after the runs failed. */
    static final int EXIT_CHECK_FAILED = 1;

    private ComparisonReporting() {
    }

    static String now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** The command as a person reruns it from the repository root. */
    static String command(CommandSpec spec) {
        return "bench/cleave-bench.sh " + String.join(" ", spec.commandLine().getParseResult().originalArgs());
    }

    static int finish(CommandSpec spec, String name, String title, String startedAt, Map<String, String> parameters,
                      ComparisonRunner.Outcome outcome, Map<String, String> versions, Path output, Path doc,
                      String datadirRoot) throws IOException {
        Map<String, String> host = HostInfo.collect(Path.of(datadirRoot != null ? datadirRoot : "/tmp"));
        host.put("server", outcome.serverVersion());
        host.putAll(versions);
        host.put("machine", host.get("machine") + "; " + outcome.serverVersion()
            + versions.values().stream().map(v -> ", " + v).reduce("", String::concat));
        List<String> checks = outcome.checks().stream().map(Dataset.CheckResult::line).toList();
        ComparisonSet set = new ComparisonSet(name, title, command(spec).strip(), startedAt, now(), host,
            new LinkedHashMap<>(parameters), outcome.comparisons(), checks, outcome.checksPassed());
        ResultWriter.writeJson(set, output);
        ResultWriter.render(set, output, doc);
        PrintWriter out = spec.commandLine().getOut();
        out.println();
        out.print(Files.readString(output.resolve(ResultWriter.SUMMARY_MD)));
        out.println("wrote " + output.toAbsolutePath() + (doc != null ? " and updated " + doc : ""));
        out.flush();
        return set.checksPassed() ? 0 : EXIT_CHECK_FAILED;
    }
}
