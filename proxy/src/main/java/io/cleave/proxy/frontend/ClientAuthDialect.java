package io.cleave.proxy.frontend;

import io.cleave.proxy.protocol.packet.server.AuthMoreData;
import io.netty.buffer.ByteBuf;

import java.util.Map;

/**
 * How a client carries caching_sha2_password's extra rounds, which MySQL Connector/J decides by
 * the server version it reads: from a server before 5.5.16 it takes the extra authentication data
 * without the 0x01 mark of AuthMoreData, and for one before 8.0.5 it encrypts the password with
 * RSA PKCS#1 v1.5 padding instead of OAEP. It reads MariaDB's {@code 5.5.5-10.11.19-MariaDB} (the
 * version string of MariaDB before 11.0, which the proxy passes on to clients) as 5.5.5, so both
 * apply to it there. Every other client marks the data and uses OAEP, whatever the version.
 *
 * @param marksExtraData AuthMoreData goes with its 0x01 mark
 * @param oaep           the RSA-encrypted password comes with OAEP padding (else PKCS#1 v1.5)
 */
record ClientAuthDialect(boolean marksExtraData, boolean oaep) {

    static final ClientAuthDialect STANDARD = new ClientAuthDialect(true, true);

    private static final String CONNECTOR_J = "MySQL Connector/J";

    /**
     * @param serverVersion the version string the proxy's handshake gave
     * @param attributes    the client's connection attributes ({@code _client_name})
     */
    static ClientAuthDialect of(String serverVersion, Map<String, String> attributes) {
        if (!CONNECTOR_J.equals(attributes.get("_client_name"))) {
            return STANDARD;
        }
        long version = connectorJVersion(serverVersion);
        return new ClientAuthDialect(version >= 50516, version >= 80005);
    }

    /** Connector/J's reading of a version string: its leading major.minor.patch as one number (5.5.5 is 50505). */
    private static long connectorJVersion(String version) {
        long[] parts = new long[3];
        int part = 0;
        for (int i = 0; i < version.length() && part < 3; i++) {
            char c = version.charAt(i);
            if (c >= '0' && c <= '9') {
                parts[part] = Math.min(parts[part] * 10 + (c - '0'), 99);
            } else if (c == '.') {
                part++;
            } else {
                break;
            }
        }
        return parts[0] * 10_000 + parts[1] * 100 + parts[2];
    }

    void write(AuthMoreData more, ByteBuf out) {
        if (marksExtraData) {
            more.write(out);
        } else {
            out.writeBytes(more.data());
        }
    }
}
