package io.cleave.manager.cli;

import picocli.CommandLine.Option;

/** {@code --wait} and {@code --json} of the commands that start long work (move, shard-table, import, scale). */
public final class FollowOptions {

    @Option(names = "--wait", description = "Follow it until it ends (a progress bar on a terminal, plain lines elsewhere).")
    boolean await;

    @Option(names = "--json", description = "Print it as JSON (with --wait: as it ended).")
    boolean json;
}
