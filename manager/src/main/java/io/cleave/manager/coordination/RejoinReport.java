package io.cleave.manager.coordination;

import java.util.List;

/**
 * What {@code cleave rejoin} did: the old primary's shards replicate from the new primary now, or nothing
 * changed because some hold transactions the new primary lacks.
 *
 * @param joined  whether this home is now the new primary's standby
 * @param epoch   the pair's epoch (the new primary's)
 * @param primary the new primary's admin URL
 * @param shards  per shard, the GTID it replicates from, or its errant transactions when refused
 */
public record RejoinReport(boolean joined, long epoch, String primary, List<String> shards) {
}
