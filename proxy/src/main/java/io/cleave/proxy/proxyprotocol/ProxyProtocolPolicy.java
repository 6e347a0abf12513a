package io.cleave.proxy.proxyprotocol;

/**
 * Who may tell the proxy a client's address with a PROXY protocol header (HAProxy's, version 1 or 2) before the
 * MySQL protocol begins: a relay or load balancer in front of the proxy.
 *
 * @param trusted  the peers whose header is taken ({@code proxy.proxy_protocol_networks}); a header from any other
 *                 peer refuses the connection
 * @param required whether a peer of {@code trusted} must send one ({@code proxy.proxy_protocol_required}): a
 *                 connection from there without it is refused. Off, such a peer may also connect directly (as
 *                 MariaDB takes it), and is then seen at its own address
 */
public record ProxyProtocolPolicy(TrustedNetworks trusted, boolean required) {

    /** No header is taken from anyone. */
    public static final ProxyProtocolPolicy OFF = new ProxyProtocolPolicy(TrustedNetworks.NONE, false);

    public ProxyProtocolPolicy {
        java.util.Objects.requireNonNull(trusted, "trusted");
    }

    /** This policy with {@code address} trusted too (the standby whose relay sends its clients here). */
    public ProxyProtocolPolicy trusting(java.net.InetAddress address) {
        return new ProxyProtocolPolicy(trusted.with(address), required);
    }
}
