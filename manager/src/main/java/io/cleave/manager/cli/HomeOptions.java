package io.cleave.manager.cli;

import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.home.CleaveHome;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/** {@code --home} and {@code --config}, shared by every subcommand. */
public final class HomeOptions {

    static final String DEFAULT_CONFIG = "config/cleave.yaml";

    @Option(names = "--home", paramLabel = "DIR",
            description = "Home directory for state, sockets, logs and (by default) datadirs. Default: $CLEAVE_HOME, else ./cleave-home")
    Path home;

    @Option(names = "--config", paramLabel = "FILE",
            description = "Config file. Default: $CLEAVE_CONFIG, else " + DEFAULT_CONFIG)
    Path config;

    Map<String, String> env = System.getenv();

    public CleaveHome home() {
        return CleaveHome.resolve(home, env);
    }

    /** The admin client of the daemon running for the home; fails with {@link ExitCodes#NO_DAEMON} when none runs. */
    public AdminClient daemon() {
        CleaveHome home = home();
        return AdminClient.connect(home).orElseThrow(() -> new ExitCodes.NoDaemonException(
                "no cleave daemon is running for home " + home.root() + " (start one with 'cleave up')"));
    }

    /** The config file named, or the default one when it exists; null when none was named and there is none. */
    public Path configIfAny() {
        if (config != null) {
            return config();
        }
        try {
            return config();
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    public Path config() {
        Path chosen = config;
        if (chosen == null) {
            String fromEnv = env.get("CLEAVE_CONFIG");
            chosen = Path.of(fromEnv != null && !fromEnv.isBlank() ? fromEnv : DEFAULT_CONFIG);
        }
        if (!Files.isRegularFile(chosen)) {
            throw new IllegalArgumentException("config file " + chosen.toAbsolutePath() + " does not exist: pass --config FILE"
                    + " (the samples are in config/: cleave.yaml, tpcc.yaml, sysbench.yaml, single.yaml)");
        }
        return chosen.toAbsolutePath();
    }
}
