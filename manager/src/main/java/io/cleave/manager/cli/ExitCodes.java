package io.cleave.manager.cli;

import io.cleave.manager.config.ConfigException;
import io.cleave.manager.home.DaemonLock;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.manager.instance.BinaryException;
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

    public static int of(Throwable e) {
        if (e instanceof ConfigException || e instanceof ShardMapStore.ShardMapMismatchException) {
            return CONFIG_INVALID;
        }
        if (e instanceof DaemonLock.HomeBusyException) {
            return HOME_BUSY;
        }
        if (e instanceof NoDaemonException) {
            return NO_DAEMON;
        }
        return FAILED;
    }

    @Override
    public int handleExecutionException(Exception e, CommandLine cmd, CommandLine.ParseResult parseResult) {
        String prefix = e instanceof ConfigException ? "invalid config:\n" : e instanceof BinaryException ? "server binary: " : "";
        cmd.getErr().println("error: " + prefix + (e.getMessage() == null ? e.toString() : e.getMessage()));
        if (of(e) == FAILED && !(e instanceof BinaryException) && Boolean.getBoolean("cleave.debug")) {
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
