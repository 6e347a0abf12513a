package io.cleave.manager.standby.relay;

/**
 * What a standby's proxy port does while the other home is the primary, for {@code cleave status}, {@code GET
 * /v1/standby} and /metrics.
 *
 * @param listen      the port's address ({@code proxy.listen})
 * @param primaryProxy where the relayed connections go (the primary's proxy); null until the primary said
 * @param state       {@code relaying}, {@code refusing} (the primary's proxy is unknown or not reachable) or
 *                    {@code stopped} (this home serves with its own proxy now)
 * @param problem     why it refuses (the last failed attempt to reach the primary's proxy), else null
 * @param active      relayed connections open now
 * @param relayed     connections relayed since the daemon started
 * @param refused     connections refused (the primary's proxy not reachable) since the daemon started
 * @param bytesToPrimary bytes the clients sent, relayed to the primary's proxy
 * @param bytesToClients bytes the primary's proxy answered, relayed to the clients
 */
public record RelayReport(String listen, String primaryProxy, String state, String problem, long active, long relayed,
                          long refused, long bytesToPrimary, long bytesToClients) {

    /** One line for the proxy's place in {@code cleave status}. */
    public String describe() {
        return switch (state) {
            case "relaying" -> "relays " + listen + " to the primary's proxy " + primaryProxy + " (" + active
                    + " connection(s) open, " + relayed + " relayed, " + bytesToPrimary + " bytes to it, "
                    + bytesToClients + " bytes back)";
            case "refusing" -> "refuses clients on " + listen + ": " + problem;
            default -> "the relay to the primary's proxy is stopped";
        };
    }
}
