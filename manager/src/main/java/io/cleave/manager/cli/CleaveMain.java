package io.cleave.manager.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code cleave}: the daemon and the admin CLI in one binary. */
@Command(name = "cleave", mixinStandardHelpOptions = true, versionProvider = CleaveMain.Version.class,
        description = "One MySQL-compatible database as N local shards on one host.",
        subcommands = {InitCommand.class, UpCommand.class, DownCommand.class, StatusCommand.class,
                ExplainCommand.class, XaCommand.class, ShardsCommand.class, MoveCommand.class,
                MovesCommand.class, RebalanceCommand.class, ShardTableCommand.class, ImportCommand.class, ScaleCommand.class,
                RepairCommand.class, BackupCommand.class, BackupsCommand.class, RestoreCommand.class, StandbyCommand.class, PromoteCommand.class, SwitchoverCommand.class, RejoinCommand.class,
                HashPasswordCommand.class, CommandLine.HelpCommand.class,
                PlanCommand.class})
public final class CleaveMain implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The configured command line; tests call {@code execute} on it with captured output. */
    public static CommandLine commandLine() {
        return new CommandLine(new CleaveMain())
                .setExecutionExceptionHandler(new ExitCodes())
                .setCaseInsensitiveEnumValuesAllowed(true);
    }

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The version recorded in the jar's manifest. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = CleaveMain.class.getPackage().getImplementationVersion();
            return new String[] {"cleave " + (v == null ? "dev" : v)};
        }
    }
}
