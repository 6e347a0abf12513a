package io.cleave.proxy.frontend;

import io.cleave.proxy.merge.ResultColumn;
import io.cleave.proxy.merge.TextRow;
import io.cleave.proxy.protocol.packet.server.ErrPacket;

import java.util.ArrayList;
import java.util.List;

/** What one shard answered to a statement the proxy sent it and collected (not relayed). */
final class LegResult {

    final int shard;
    final List<ResultColumn> columns = new ArrayList<>();
    final List<TextRow> rows = new ArrayList<>();
    /** Per statement of the leg, in order: its affected rows, and how many of {@link #rows} came up to its end. */
    final List<Long> affectedEach = new ArrayList<>();
    final List<Integer> rowsEach = new ArrayList<>();
    boolean resultSet;
    long affectedRows;
    long lastInsertId;
    int warnings;
    int status;
    ErrPacket error;
    Throwable failure;

    LegResult(int shard) {
        this.shard = shard;
    }

    boolean ok() {
        return error == null && failure == null;
    }

    /** The error to report for this shard (a server error, or the lost connection). */
    ErrPacket errorPacket() {
        if (error != null) {
            return error;
        }
        if (failure instanceof io.cleave.proxy.backend.ShardBusyException) {
            return ShardErrors.unavailable(shard, failure);
        }
        String message = failure == null ? "no answer" : failure.getMessage() != null ? failure.getMessage()
                : failure.toString();
        return new ErrPacket(1158, "08S01", "Lost connection to shard " + shard + ": " + message);
    }
}
