package io.cleave.manager.standby.tls;

/**
 * Whether a replica's connection to its primary shard is encrypted, as {@code SHOW SLAVE STATUS} says
 * ({@code Master_SSL_Allowed}, {@code Master_SSL_Verify_Server_Cert}).
 */
public enum ReplicaTlsState {
    /** TLS, the primary's certificate and host name verified. */
    VERIFIED,
    /** TLS without verifying the primary (set up by hand: Cleave always verifies). */
    UNVERIFIED,
    /** In clear. */
    OFF;

    public static ReplicaTlsState of(String sslAllowed, String verifyServerCert) {
        if (!"Yes".equalsIgnoreCase(sslAllowed)) {
            return OFF;
        }
        return "Yes".equalsIgnoreCase(verifyServerCert) ? VERIFIED : UNVERIFIED;
    }

    /**
     * The replica's last error with what it means when TLS failed: the server's own words name the TLS library's
     * state, not the cause ("SSL connection error: ok" from WolfSSL, "error:00000000:lib(0)::reason(0)" from OpenSSL).
     */
    public String explain(String error) {
        if (error == null || this == OFF || !error.contains("SSL")) {
            return error;
        }
        return "TLS to the primary's shard failed: its certificate is not the one this home holds for it"
                + " (state/tls/peer-shard-cert.pem, from the attach or the last switchover), or does not name the host"
                + " the replica connects to, or the shard offers no TLS; the server says: " + error;
    }

    /** As the status table shows it. */
    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
