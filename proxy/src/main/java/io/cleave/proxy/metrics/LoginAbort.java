package io.cleave.proxy.metrics;

/** Why a client connection ended before it logged in (besides a wrong password). */
public enum LoginAbort {
    /** No login within the login timeout. */
    TIMEOUT("timeout"),
    /** A packet above the cap before login. */
    PACKET_TOO_LARGE("packet_too_large"),
    /** A handshake response or authentication packet that does not follow the protocol. */
    MALFORMED("malformed"),
    /** Its 'user'@'host' failed too often: refused without a check. */
    THROTTLED("throttled"),
    /** A PROXY protocol header from a peer not trusted with one, or none from one that must send it. */
    PROXY_HEADER("proxy_header");

    private final String tag;

    LoginAbort(String tag) {
        this.tag = tag;
    }

    public String tag() {
        return tag;
    }
}
