package io.cleave.manager.home;

import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;

/**
 * {@code state/daemon.json}: how the CLI finds a running daemon of a home.
 *
 * @param adminHost the address the admin API listens on (admin.listen); null in files of older daemons: loopback
 */
@com.fasterxml.jackson.annotation.JsonIgnoreProperties(ignoreUnknown = true)
public record DaemonInfo(long pid, int adminPort, String startedAt, String version, String adminHost) {

    public DaemonInfo(long pid, int adminPort, String startedAt, String version) {
        this(pid, adminPort, startedAt, version, null);
    }

    /** The admin API's base URL as a client on this host reaches it. */
    public String localAdminUrl() {
        String host = adminHost == null || adminHost.equals("0.0.0.0") ? "127.0.0.1" : adminHost.equals("::") ? "::1" : adminHost;
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + adminPort;
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    public static Optional<DaemonInfo> read(CleaveHome home) {
        Path file = home.daemonInfoFile();
        if (!Files.isRegularFile(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(file.toFile(), DaemonInfo.class));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    public void write(CleaveHome home) {
        Path file = home.daemonInfoFile();
        Path tmp = file.resolveSibling("daemon.json.tmp");
        try {
            JSON.writerWithDefaultPrettyPrinter().writeValue(tmp.toFile(), this);
            Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    public static void delete(CleaveHome home) {
        try {
            Files.deleteIfExists(home.daemonInfoFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public boolean processAlive() {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }
}
