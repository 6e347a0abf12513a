package io.cleave.manager.standby.forwarding;

/**
 * Whether a home's proxy runs, as the pair's other home asks it ({@code GET /v1/standby/proxy}).
 *
 * @param runs       the proxy runs (on a standby: it forwards its clients to the primary's shards, or serves none)
 * @param forwarding it serves another home's shards
 * @param state      the proxy as {@code cleave status} describes it
 */
public record PeerProxy(boolean runs, boolean forwarding, String state) {
}
