package io.cleave.proxy.server;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.FrameKind;
import io.cleave.proxy.backend.ResponseSink;
import io.cleave.proxy.backend.ResponseTracker;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.Wire;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Collects a control statement's text rows into {@code result}; an error answer completes it
 * with a {@link ShardAdmin.ShardAdminException}, a lost connection with its cause.
 */
public final class RowCollector implements ResponseSink {

    private final CompletableFuture<List<ShardAdmin.Row>> result;
    private final List<ShardAdmin.Row> rows = new ArrayList<>();
    private int columns;
    private ErrPacket error;

    public RowCollector(CompletableFuture<List<ShardAdmin.Row>> result) {
        this.result = result;
    }

    @Override
    public void frame(BackendConnection connection, ByteBuf frame, FrameKind kind) {
        try {
            ByteBuf p = Frames.payload(frame);
            if (kind == FrameKind.COLUMN_COUNT) {
                columns = (int) Wire.readLenencInt(p);
            } else if (kind == FrameKind.ROW) {
                List<String> values = new ArrayList<>(columns);
                for (int c = 0; c < columns; c++) {
                    if (p.getUnsignedByte(p.readerIndex()) == Wire.NULL_MARKER) {
                        p.skipBytes(1);
                        values.add(null);
                    } else {
                        values.add(Wire.readLenencString(p, StandardCharsets.UTF_8));
                    }
                }
                rows.add(new ShardAdmin.Row(values));
            } else if (kind == FrameKind.ERR) {
                error = ErrPacket.decode(p);
            }
        } finally {
            frame.release();
        }
    }

    @Override
    public void complete(BackendConnection connection, ResponseTracker tracker) {
        if (error != null) {
            result.completeExceptionally(new ShardAdmin.ShardAdminException(error.errorCode() + " " + error.message()));
        } else {
            result.complete(rows);
        }
    }

    @Override
    public void failed(BackendConnection connection, Throwable cause) {
        result.completeExceptionally(cause);
    }
}
