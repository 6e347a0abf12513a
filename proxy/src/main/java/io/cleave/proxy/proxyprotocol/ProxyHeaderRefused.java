package io.cleave.proxy.proxyprotocol;

/**
 * The event a connection refused for its PROXY protocol header (or its lack) fires: the MySQL side answers with an
 * error packet saying {@link #reason()} and closes.
 */
public record ProxyHeaderRefused(String reason) {
}
