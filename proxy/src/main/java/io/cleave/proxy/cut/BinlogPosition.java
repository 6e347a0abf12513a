package io.cleave.proxy.cut;

/**
 * Where a shard's binary log stood at the instant its snapshot was opened: every transaction
 * before {@code file}:{@code position} is in the snapshot, none after it.
 *
 * @param gtid the GTID position at that point ({@code BINLOG_GTID_POS}), e.g. {@code 0-1001-42}; null
 *             when the server cannot say (no binlog, or none written yet)
 */
public record BinlogPosition(String file, long position, String gtid) {

    @Override
    public String toString() {
        return file + ":" + position + (gtid == null ? "" : " (" + gtid + ")");
    }
}
