package io.cleave.manager.standby;

/**
 * An XA transaction prepared on a primary shard before a cut and not yet committed there: its prepare
 * group lies in {@code file} from {@code start} to {@code end}. A replica seeded at the cut applies the
 * group before replicating from the cut, so the XA COMMIT it replicates next finds the transaction.
 */
public record PendingPrepare(int shard, String xid, String file, long start, long end) {
}
