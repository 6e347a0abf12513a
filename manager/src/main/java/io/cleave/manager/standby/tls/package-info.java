/**
 * TLS between a standby pair's shards: each home's shards offer a certificate of the home's own
 * ({@code server.replication_tls: required}), the other home's replicas verify it against the copy the pair
 * exchanged (with the attach, and with a switchover's take-over), and the replication account logs in over TLS only.
 */
package io.cleave.manager.standby.tls;
