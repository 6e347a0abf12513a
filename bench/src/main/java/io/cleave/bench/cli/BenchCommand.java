package io.cleave.bench.cli;

import java.io.PrintWriter;
import java.sql.SQLException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code cleave-bench}: the TPC-C harness and the comparisons built on it and on sysbench. */
@Command(name = "cleave-bench", mixinStandardHelpOptions = true, version = "cleave-bench 0.1",
    description = "Benchmarks for Cleave: TPC-C, the sysbench suite, proxy overhead, one instance vs N shards, "
        + "cross-shard transactions, deadlocks across shards, moves, imports, scaling, memory of idle client connections, the chaos soak.",
    subcommands = {TpccCommand.class, ProxyOverheadCommand.class, ScalingCommand.class, CrossShardCommand.class,
        DeadlocksCommand.class, CutsCommand.class, MoveBenchCommand.class, ImportBenchCommand.class,
        BackupBenchCommand.class, ScaleBenchCommand.class, UniqueBenchCommand.class, ConnectionMemoryCommand.class,
        AccountsBenchCommand.class,
        ChaosCommand.class,
        ReportCommand.class, SpliceCommand.class})
public final class BenchCommand implements Runnable {
    /** Exit code when the command itself failed (bad target, SQL error), as opposed to a failed check. */
    public static final int EXIT_FAILURE = 2;

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        System.exit(commandLine().execute(args));
    }

    public static CommandLine commandLine() {
        CommandLine cmd = new CommandLine(new BenchCommand());
        cmd.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            PrintWriter err = commandLine.getErr();
            err.println("error: " + describe(e));
            if (!(e instanceof SQLException) && !(e instanceof IllegalStateException)) {
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
