package io.cleave.manager.standby;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/**
 * A standby's answer once it took over: its epoch, and how the old primary's proxy reaches its shards
 * (the shard account's name and password: the proxy's own connections use it).
 *
 * @param sockets each shard's Unix socket, by shard: on the same host the proxy logs clients' accounts in
 *                through it, as it does on its own shards (an account of {@code localhost} cannot log in over TCP)
 * @param shardCertificate the certificate the new primary's shards offer (PEM), which the old primary's replicas
 *                verify; null when they run without TLS
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record TakeOverAnswer(long epoch, String user, String password, List<Attachment.ShardAddress> shards,
                             java.util.Map<Integer, String> sockets, String shardCertificate) {

    public TakeOverAnswer {
        shards = List.copyOf(shards);
        sockets = sockets == null ? java.util.Map.of() : java.util.Map.copyOf(sockets);
    }

    @Override
    public String toString() {
        return "TakeOverAnswer[epoch=" + epoch + ", user=" + user + ", shards=" + shards + "]";
    }
}
