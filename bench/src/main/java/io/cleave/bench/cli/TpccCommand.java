package io.cleave.bench.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code cleave-bench tpcc load | run | check | chart}: the TPC-C harness on one target. */
@Command(name = "tpcc", mixinStandardHelpOptions = true,
    description = "TPC-C workload for one MySQL-compatible instance or the Cleave proxy.",
    subcommands = {LoadCommand.class, RunCommand.class, CheckCommand.class, ChartCommand.class})
public final class TpccCommand implements Runnable {

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }
}
