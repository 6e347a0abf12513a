package io.cleave.proxy.frontend;

import io.cleave.proxy.accounts.ClientAddress;

/**
 * What a connection's logins are checked against: the scramble of its handshake (COM_CHANGE_USER
 * answers the same one), whether the transport is secure (TLS or a Unix socket, where
 * caching_sha2_password may take the password in clear), the client's address (account host
 * patterns match it), and how that client carries caching_sha2_password's extra rounds.
 */
record LoginChallenge(byte[] scramble, boolean secureTransport, ClientAddress client, ClientAuthDialect dialect) {

    /** The client's host as messages and failed-login counts name it. */
    String clientHost() {
        return client.display();
    }
}
