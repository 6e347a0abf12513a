package io.cleave.manager.standby.tls;

import java.nio.file.Path;
import java.util.Optional;

/**
 * How a replica reaches its primary shard: in clear, or over TLS verifying the primary's certificate against
 * {@code ca} (its own self-signed certificate, as the pair exchanged it) and the host name it connects to.
 */
public record ReplicaLink(Optional<Path> ca) {

    public static final ReplicaLink PLAIN = new ReplicaLink(Optional.empty());

    public static ReplicaLink verifying(Path ca) {
        return new ReplicaLink(Optional.of(ca));
    }

    public boolean encrypted() {
        return ca.isPresent();
    }

    /** The TLS options of {@code CHANGE MASTER TO}. */
    public String changeMasterOptions() {
        if (ca.isEmpty()) {
            return "MASTER_SSL = 0";
        }
        String path = ca.get().toAbsolutePath().toString();
        if (!path.matches("[A-Za-z0-9/._+-]+")) {
            throw new IllegalArgumentException("'" + path + "' cannot be named in CHANGE MASTER: keep the home in a"
                    + " directory whose path has letters, digits and . _ + - only");
        }
        return "MASTER_SSL = 1, MASTER_SSL_CA = '" + path + "', MASTER_SSL_VERIFY_SERVER_CERT = 1";
    }
}
