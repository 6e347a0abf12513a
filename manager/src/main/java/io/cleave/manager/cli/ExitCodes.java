package io.cleave.manager.cli;

import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.admin.AdminError;
import io.cleave.manager.config.ConfigException;
import io.cleave.manager.home.DaemonLock;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.manager.instance.BinaryException;
import io.cleave.manager.instance.PlanRefusedException;
import picocli.CommandLine;

/** Exit codes of the CLI, and the mapping from exceptions to them. */
public final class ExitCodes implements CommandLine.IExecutionExceptionHandler {

    public static final int OK = 0;
    public static final int FAILED = 1;
    public static final int USAGE = 2;
    public static final int CONFIG_INVALID = 3;
    public static final int NO_DAEMON = 4;
    public static final int HOME_BUSY = 5;
    public static final int NOT_READY = 6;
    /** The daemon refused an operator's action that contradicts recorded state (rerun with --force to override). */
    public static final int REFUSED = 7;
    /** The daemon does not know what the command named (e.g. an xid with no prepared branch). */
    public static final int NOT_FOUND = 8;

    public static int of(Throwable e) {
        if (e instanceof ConfigException || e instanceof ShardMapStore.ShardMapMismatchException || e instanceof PlanRefusedException) {
            return CONFIG_INVALID;
        }
        if (e instanceof DaemonLock.HomeBusyException) {
            return HOME_BUSY;
        }
        if (e instanceof NoDaemonException) {
            return NO_DAEMON;
        }
        if (e instanceof AdminClient.DaemonAnswer answer) {
            return switch (answer.status()) {
                case AdminError.BAD_REQUEST -> USAGE;
                case AdminError.NOT_FOUND -> NOT_FOUND;
                case AdminError.CONFLICT -> REFUSED;
                case AdminError.UNAVAILABLE -> NOT_READY;
                default -> FAILED;
            };
        }
        return FAILED;
    }

    @Override
    public int handleExecutionException(Exception e, CommandLine cmd, CommandLine.ParseResult parseResult) {
        String prefix = e instanceof ConfigException ? "invalid config:\n" : e instanceof BinaryException ? "server binary: " : "";
        cmd.getErr().println("error: " + prefix + (e.getMessage() == null ? e.toString() : e.getMessage()));
        if (of(e) == FAILED && !(e instanceof BinaryException) && !(e instanceof AdminClient.DaemonAnswer) && Boolean.getBoolean("cleave.debug")) {
            e.printStackTrace(cmd.getErr());
        }
        return of(e);
    }

    /** No daemon runs for the home a command was pointed at. */
    public static final class NoDaemonException extends RuntimeException {
        public NoDaemonException(String message) {
            super(message);
        }
    }
}
