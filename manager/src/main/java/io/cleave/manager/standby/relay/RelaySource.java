package io.cleave.manager.standby.relay;

import java.io.IOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * On a primary: the address its standby's relay connects from (the standby's advertised address, which it says at
 * every asking), kept in {@code state/standby-relay-from} so that the proxy trusts that address's PROXY protocol
 * headers from its first client on, after a restart too.
 */
public final class RelaySource {

    static final String FILE = "standby-relay-from";

    private RelaySource() {
    }

    /** The address kept, resolved; empty when none was said or it no longer resolves. */
    public static Optional<InetAddress> of(Path stateDir) {
        Path file = stateDir.resolve(FILE);
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(resolve(Files.readString(file).trim()));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** The address kept, and whether it differs from the one kept before. */
    public record Kept(InetAddress address, boolean changed) {
    }

    /**
     * Keeps {@code host} (an address or a name, resolved here), writing it when it differs from the one kept.
     *
     * @throws UnknownHostException when it does not resolve
     */
    public static Kept save(Path stateDir, String host) throws IOException {
        InetAddress address = resolve(host);
        if (of(stateDir).filter(address::equals).isPresent()) {
            return new Kept(address, false);
        }
        Path file = stateDir.resolve(FILE);
        Path tmp = stateDir.resolve(FILE + ".tmp");
        Files.writeString(tmp, host + "\n");
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return new Kept(address, true);
    }

    private static InetAddress resolve(String host) throws UnknownHostException {
        return InetAddress.getByName(host);
    }
}
