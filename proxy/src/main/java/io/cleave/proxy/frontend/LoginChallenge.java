package io.cleave.proxy.frontend;

/**
 * What a connection's logins are checked against: the scramble of its handshake (COM_CHANGE_USER
 * answers the same one), whether the transport is secure (TLS or a Unix socket, where
 * caching_sha2_password may take the password in clear), the client's host for messages, and
 * how that client carries caching_sha2_password's extra rounds.
 */
record LoginChallenge(byte[] scramble, boolean secureTransport, String clientHost, ClientAuthDialect dialect) {
}
