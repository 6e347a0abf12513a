package io.cleave.manager.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code cleave xa}: cross-shard transactions whose commit did not finish (in-doubt XA branches). */
@Command(name = "xa", mixinStandardHelpOptions = true,
        description = {"Shows and settles in-doubt transactions: XA branches prepared on a shard by a cross-shard"
                + " commit that did not finish (the daemon or a shard died mid-commit).",
                "Recovery settles them from the coordinator shard's recorded decision at start and periodically;"
                        + " these commands show them and act at once."},
        subcommands = {XaListCommand.class, XaCommitCommand.class, XaRollbackCommand.class, XaRecoverCommand.class})
public final class XaCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
