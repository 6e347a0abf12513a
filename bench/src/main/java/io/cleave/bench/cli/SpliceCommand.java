package io.cleave.bench.cli;

import io.cleave.bench.compare.ResultsDocument;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "splice", mixinStandardHelpOptions = true,
    description = "Replace one generated section of a Markdown document with a file's text (e.g. the machine description).")
final class SpliceCommand implements Callable<Integer> {
    @Option(names = "--doc", required = true, description = "The document, e.g. bench/RESULTS.md.")
    Path doc;

    @Option(names = "--section", required = true, description = "Section name (between its BEGIN/END cleave-bench markers).")
    String section;

    @Option(names = "--file", required = true, description = "Markdown to put there.")
    Path file;

    @Override
    public Integer call() throws Exception {
        ResultsDocument.splice(doc, section, Files.readString(file));
        return 0;
    }
}
