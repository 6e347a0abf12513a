package io.cleave.manager.standby;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.Map;

/**
 * What a switching primary asks its standby: apply exactly up to these positions, then take over.
 *
 * @param gtids         each shard's {@code gtid_binlog_pos} on the primary, read once it was read-only
 * @param waitMillis    how long each replica may take to get there
 * @param forwardingRun the run id of the primary's proxy, which goes on serving its clients on the
 *                      standby's shards: its XA branches are its own to settle
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record TakeOverRequest(Map<Integer, String> gtids, long waitMillis, String forwardingRun) {
}
