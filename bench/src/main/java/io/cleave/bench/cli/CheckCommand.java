package io.cleave.bench.cli;

import io.cleave.bench.jdbc.JdbcTarget;
import io.cleave.bench.tpcc.check.ConsistencyCheck;
import io.cleave.bench.tpcc.check.Violation;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import javax.sql.DataSource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

@Command(name = "check", mixinStandardHelpOptions = true,
    description = "Check TPC-C consistency conditions 1-4 per warehouse and district; exit 1 on any violation.")
final class CheckCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--url", description = "JDBC URL of one target: a direct instance or the proxy.")
    String url;

    @Option(names = "--shard-url", description = "JDBC URL of one shard; repeat for every shard.")
    List<String> shardUrls = new ArrayList<>();

    @Option(names = "--user", defaultValue = "root", description = "User (default: ${DEFAULT-VALUE}).")
    String user;

    @Option(names = "--password", defaultValue = "", description = "Password (default: empty).")
    String password;

    @Option(names = "--warehouses", defaultValue = "0",
        description = "Also fail when any of warehouses 1..N is missing (default: check what is there).")
    int warehouses;

    @Override
    public Integer call() throws SQLException {
        if ((url == null) == shardUrls.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "give either --url or one or more --shard-url");
        }
        List<String> urls = url != null ? List.of(url) : shardUrls;
        List<DataSource> sources = new ArrayList<>();
        for (String u : urls) {
            sources.add(new JdbcTarget(u, user, password));
        }
        List<Violation> violations = ConsistencyCheck.check(sources, warehouses);
        for (int i = 0; i < urls.size(); i++) {
            System.out.printf("source %d: %s%n", i, sources.get(i));
        }
        if (violations.isEmpty()) {
            System.out.println("consistency conditions 1-4 hold");
            return 0;
        }
        violations.forEach(v -> System.out.println("VIOLATION " + v));
        System.out.printf("%d violations%n", violations.size());
        return 1;
    }
}
