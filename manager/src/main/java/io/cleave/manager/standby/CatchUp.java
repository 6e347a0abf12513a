package io.cleave.manager.standby;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.Map;

/**
 * A switchover's catch-up before it holds anything: the primary reads each shard's position while clients still
 * write, and its standby's replicas apply up to it. The pause that follows then waits only for what was written
 * since, instead of the whole backlog a replica applying by one thread carries under load. It changes nothing and
 * refuses nothing: a replica still behind when {@code waitMillis} is up is the held catch-up's to wait for.
 *
 * @param gtids      each shard's {@code gtid_binlog_pos} on the primary, read just before
 * @param waitMillis how long the replicas may take together
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record CatchUp(Map<Integer, String> gtids, long waitMillis) {

    /** What the request must hold; a request that does not is refused (400) before any shard is asked. */
    public CatchUp {
        if (gtids == null || gtids.isEmpty()) {
            throw new IllegalArgumentException("no GTID positions: expected each shard's as {\"0\": \"0-1000-42\", ...}");
        }
        gtids.values().forEach(g -> ReplicaSetup.gtid(g == null ? "null" : g));
        if (waitMillis <= 0) {
            throw new IllegalArgumentException("waitMillis must be positive, not " + waitMillis);
        }
        gtids = Map.copyOf(gtids);
    }

    /**
     * How far it got.
     *
     * @param millis  how long the standby waited
     * @param reached whether every replica applied its position within the time
     */
    @JsonIgnoreProperties(ignoreUnknown = true)
    public record Result(long millis, boolean reached) {
    }
}
