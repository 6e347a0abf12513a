package io.cleave.manager.standby;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.List;
import java.util.Map;

/**
 * What a switching primary asks its standby: apply exactly up to these positions, then take over.
 *
 * @param gtids         each shard's {@code gtid_binlog_pos} on the primary, read once it was read-only
 * @param waitMillis    how long each replica may take to get there
 * @param forwardingRun the run id of the primary's proxy, which goes on serving its clients on the
 *                      standby's shards: its XA branches are its own to settle
 * @param accounts      the primary's user accounts: the standby's shards hold exactly these
 * @param replicationPassword the replication account's password (the same on both homes): the old primary's
 *                      shards log in with it to replicate the new primary's
 * @param peerHost      the primary's advertised shard address, which its proxy connects from when it forwards to the
 *                      standby's shards from another host (null from a primary that did not say: on loopback)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record TakeOverRequest(Map<Integer, String> gtids, long waitMillis, String forwardingRun,
                              List<io.cleave.manager.accounts.AccountSync.AccountCopy> accounts,
                              String replicationPassword, String peerHost) {

    public TakeOverRequest {
        accounts = accounts == null ? List.of() : List.copyOf(accounts);
    }

    @Override
    public String toString() {
        return "TakeOverRequest[gtids=" + gtids + ", waitMillis=" + waitMillis + ", forwardingRun=" + forwardingRun
                + ", " + accounts.size() + " accounts, peerHost=" + peerHost + "]";
    }
}
