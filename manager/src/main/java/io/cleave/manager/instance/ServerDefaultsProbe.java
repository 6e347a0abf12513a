package io.cleave.manager.instance;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Asks a server binary for its options and defaults ({@code --no-defaults --verbose --help}) once,
 * and keeps the answer in the cache directory per flavour and version, next to the datadir templates.
 */
public final class ServerDefaultsProbe {

    private static final Logger log = LoggerFactory.getLogger(ServerDefaultsProbe.class);

    private final Path cacheDir;
    private final boolean runAsRoot;

    public ServerDefaultsProbe(Path cacheDir, boolean runAsRoot) {
        this.cacheDir = cacheDir;
        this.runAsRoot = runAsRoot;
    }

    public ServerDefaults defaultsOf(ServerBinary binary) {
        Path cached = cacheDir.resolve("server-defaults").resolve(binary.templateKey() + ".txt");
        try {
            if (Files.isRegularFile(cached)) {
                ServerDefaults defaults = ServerDefaults.parse(Files.readString(cached));
                if (defaults.known()) {
                    return defaults;
                }
            }
            String help = run(binary);
            ServerDefaults defaults = ServerDefaults.parse(help);
            if (defaults.known()) {
                Files.createDirectories(cached.getParent());
                Path tmp = Files.createTempFile(cached.getParent(), ".defaults-", ".tmp");
                Files.writeString(tmp, help, StandardCharsets.UTF_8);
                Files.move(tmp, cached, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } else {
                log.warn("{}: {}; every planned option is written to my.cnf", binary.describe(), defaults.unknownReason().orElse(""));
            }
            return defaults;
        } catch (IOException e) {
            log.warn("cannot read the options of {}: {}; every planned option is written to my.cnf", binary.describe(), e.getMessage());
            return ServerDefaults.unknown("reading them failed: " + e.getMessage());
        }
    }

    private String run(ServerBinary binary) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(binary.mysqld().toString(), "--no-defaults"));
        if (runAsRoot) {
            cmd.add("--user=root"); // MySQL refuses to run as root without it, even for --help
        }
        cmd.add("--basedir=" + binary.basedir());
        cmd.add("--verbose");
        cmd.add("--help");
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        p.getOutputStream().close();
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                return "";
            }
        });
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", cmd) + " did not finish within 60 s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted");
        }
        return out.join();
    }
}
