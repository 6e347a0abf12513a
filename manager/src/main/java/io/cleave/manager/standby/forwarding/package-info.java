/**
 * The other home's forwarding proxy and layout changes. After {@code cleave switchover} A -> B, A's proxy goes on
 * serving its clients from B's shards, routing by the shard map it had at the switchover: it follows no later
 * version, and a move's cutover on B holds B's own proxy only. So B refuses every change of the layout (moves,
 * rebalancing, shard-table, scale, import, a global unique key's build) while A's proxy may still forward
 * ({@link ForwardingPeer}): it asks A ({@code GET /v1/standby/proxy}, a {@link PeerProxy}), and a home it cannot
 * ask counts as forwarding. A's forwarding ends when its daemon restarts (as a standby it starts no proxy) or on
 * {@code cleave standby --stop-forwarding} there.
 */
package io.cleave.manager.standby.forwarding;
