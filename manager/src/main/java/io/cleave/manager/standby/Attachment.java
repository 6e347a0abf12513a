package io.cleave.manager.standby;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/**
 * What a primary answers a standby that attaches: where each shard is and how to log in to replicate it.
 *
 * @param serverIdBase the primary's {@code server.server_id_base}: the standby takes another
 * @param retired      shards a scale down took away whose index the primary's shard map no longer names: the
 *                     standby lets its replicas of them go once it holds that map ({@link ShardFollower})
 * @param proxy        where the primary's proxy listens as the standby reaches it: the standby relays its own proxy
 *                     port's clients there; null from a primary that did not say (its proxy does not run)
 * @param shardCertificate the certificate the primary's shards offer (PEM), which its replicas verify; null when they
 *                     run without TLS ({@code server.replication_tls: off})
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record Attachment(long epoch, String user, String password, int serverIdBase, List<ShardAddress> shards,
                         List<Integer> retired, ProxyAddress proxy, String shardCertificate) {

    /** One primary shard's address, as its replica connects to it. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ShardAddress(int shard, String host, int port) {
    }

    /** Where the primary's proxy listens, as the standby reaches it. */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record ProxyAddress(String host, int port) {

        public io.cleave.manager.config.HostPort hostPort() {
            return new io.cleave.manager.config.HostPort(host, port);
        }
    }

    public Attachment {
        shards = List.copyOf(shards);
        retired = retired == null ? List.of() : List.copyOf(retired);
    }

    ReplicationAccount account() {
        return new ReplicationAccount(user, password);
    }
}
