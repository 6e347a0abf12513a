package io.cleave.bench.cli;

import io.cleave.bench.jdbc.JdbcTarget;
import picocli.CommandLine.Option;

/** --url, --user, --password: shared by the commands that talk to one target. */
final class ConnectionOptions {
    @Option(names = "--url", required = true,
        description = "JDBC URL of the target: a direct instance or the proxy, e.g. jdbc:mysql://127.0.0.1:6033/tpcc")
    String url;

    @Option(names = "--user", defaultValue = "root", description = "User (default: ${DEFAULT-VALUE}).")
    String user;

    @Option(names = "--password", defaultValue = "", description = "Password (default: empty).")
    String password;

    JdbcTarget target() {
        return new JdbcTarget(url, user, password);
    }
}
