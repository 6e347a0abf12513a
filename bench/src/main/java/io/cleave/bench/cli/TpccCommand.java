package io.cleave.bench.cli;

import java.io.PrintWriter;
import java.sql.SQLException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** `tpcc load | run | check | chart`: the benchmark's command line. */
@Command(name = "tpcc", mixinStandardHelpOptions = true, version = "cleave-bench 0.1",
    description = "TPC-C workload for one MySQL-compatible instance or the Cleave proxy.",
    subcommands = {LoadCommand.class, RunCommand.class, CheckCommand.class, ChartCommand.class})
public final class TpccCommand implements Runnable {
    /** Exit code when the command itself failed (bad target, SQL error), as opposed to a failed check. */
    public static final int EXIT_FAILURE = 2;

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(commandLine().execute(args));
    }

    public static CommandLine commandLine() {
        CommandLine cmd = new CommandLine(new TpccCommand());
        cmd.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            err.println("error: " + describe(e));
            if (!(e instanceof SQLException)) {
                e.printStackTrace(err);
            }
            return EXIT_FAILURE;
        });
        return cmd;
    }

    @Override
    public void run() {
        new CommandLine(this).usage(System.out);
    }

    private static String describe(Exception e) {
        if (e instanceof SQLException sql) {
            return sql.getMessage() + " (error " + sql.getErrorCode() + ", SQLSTATE " + sql.getSQLState() + ")";
        }
        return String.valueOf(e.getMessage());
    }
}
