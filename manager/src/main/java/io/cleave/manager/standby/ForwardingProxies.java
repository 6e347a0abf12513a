package io.cleave.manager.standby;

import io.cleave.manager.home.CleaveHome;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The runs of other homes' proxies that serve this home's shards: after a switchover the old primary's
 * proxy goes on serving its clients here until they move. This home's proxy leaves their prepared XA
 * branches alone (their commits are theirs to finish), so the runs are kept in {@code
 * state/forwarding-proxies}, one a line, read at every start of the proxy.
 */
public final class ForwardingProxies {

    private static final String FILE = "forwarding-proxies";

    private ForwardingProxies() {
    }

    public static Set<String> of(Path stateDir) {
        Path file = stateDir.resolve(FILE);
        if (!Files.exists(file)) {
            return Set.of();
        }
        try {
            Set<String> runs = new LinkedHashSet<>();
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (!line.isBlank()) {
                    runs.add(line.trim());
                }
            }
            return runs;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file, e);
        }
    }

    /**
     * Forgets every other home's proxy run: after a failover that home and its proxy are gone, and the branches
     * they left prepared here are this home's to settle by the replicated decisions.
     */
    public static void clear(CleaveHome home) throws IOException {
        Files.deleteIfExists(home.state().resolve(FILE));
    }

    static void add(CleaveHome home, String runId) throws IOException {
        if (runId == null || !runId.matches("[0-9a-f-]+")) {
            throw new IllegalArgumentException("'" + runId + "' is not a proxy run id");
        }
        Files.writeString(home.state().resolve(FILE), runId + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND);
    }
}
