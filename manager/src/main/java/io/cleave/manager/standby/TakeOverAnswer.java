package io.cleave.manager.standby;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;

/**
 * A standby's answer once it took over: its epoch, and how the old primary's proxy reaches its shards
 * (the shard account's name and password: the proxy's own connections use it).
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record TakeOverAnswer(long epoch, String user, String password, List<Attachment.ShardAddress> shards) {

    public TakeOverAnswer {
        shards = List.copyOf(shards);
    }

    @Override
    public String toString() {
        return "TakeOverAnswer[epoch=" + epoch + ", user=" + user + ", shards=" + shards + "]";
    }
}
