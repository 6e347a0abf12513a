package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.BackendStatement;
import io.cleave.proxy.backend.PreparedSql;
import io.cleave.proxy.protocol.packet.client.CommandCode;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

import java.util.List;

/**
 * A statement the client prepared, under the id the proxy gave it. Backend connections prepare
 * the same text lazily under their own ids; this object remembers what every execute needs:
 * the parameter count, the last bound parameter types, and long data sent for the next execute.
 */
final class ClientStatement {

    private final long id;
    private final PreparedSql sql;
    private io.cleave.router.plan.Analysis analysis;
    private int paramCount;
    private int columnCount;
    private short[] boundTypes;
    private CompositeByteBuf[] longData;
    private boolean longDataTooLong;
    private int cursorShard = -1;

    ClientStatement(long id, PreparedSql sql, io.cleave.router.plan.Analysis analysis) {
        this.id = id;
        this.sql = sql;
        this.analysis = analysis;
    }

    /** The statement's own tokens, digest and plan (kept: every execute resolves against them). */
    io.cleave.router.plan.Analysis analysis() {
        return analysis;
    }

    /**
     * The analysis for this execute: planned again when table rules changed since (a table was
     * sharded or moved online), since the kept plan may send it where the table no longer is.
     */
    io.cleave.router.plan.Analysis analysis(io.cleave.router.plan.Router router, io.cleave.router.sql.lex.SqlMode mode) {
        if (analysis.generation() != router.generation()) {
            analysis = router.analyze(sql.bytes(), mode, new io.cleave.router.plan.Analysis());
        }
        return analysis;
    }

    long id() {
        return id;
    }

    PreparedSql sql() {
        return sql;
    }

    int paramCount() {
        return paramCount;
    }

    int columnCount() {
        return columnCount;
    }

    void prepared(int params, int columns) {
        this.paramCount = params;
        this.columnCount = columns;
    }

    short[] boundTypes() {
        return boundTypes;
    }

    void boundTypes(short[] types) {
        this.boundTypes = types;
    }

    /** The shard whose connection holds this statement's open cursor, or -1. */
    int cursorShard() {
        return cursorShard;
    }

    void cursorOpened(int shard) {
        this.cursorShard = shard;
    }

    void cursorClosed() {
        this.cursorShard = -1;
    }

    /**
     * Adds a COM_STMT_SEND_LONG_DATA chunk for {@code param} (taking ownership of {@code data}).
     * The chunk is copied: the frame it came in may share a large read buffer, which a retained
     * slice would keep alive for as long as the statement waits. Data that would pass
     * {@code limit} (max_allowed_packet) for a parameter is dropped with what the statement had,
     * and its executes fail until it is reset, as on a server.
     */
    void appendLongData(ByteBufAllocator alloc, int param, ByteBuf data, long limit) {
        try {
            if (param < 0 || param >= paramCount || longDataTooLong) {
                return;
            }
            if (longData == null) {
                longData = new CompositeByteBuf[paramCount];
            }
            long size = (longData[param] == null ? 0 : longData[param].readableBytes()) + (long) data.readableBytes();
            if (size > limit) {
                clearLongData();
                longDataTooLong = true;
                return;
            }
            if (longData[param] == null) {
                longData[param] = alloc.compositeBuffer();
            }
            longData[param].addComponent(true, alloc.buffer(data.readableBytes()).writeBytes(data));
        } finally {
            data.release();
        }
    }

    /**
     * Whether long data went past max_allowed_packet: every execute fails until COM_STMT_RESET,
     * as on a server (the statement stays in its error state).
     */
    boolean longDataTooLong() {
        return longDataTooLong;
    }

    /** Whether long data waits for the next execute. */
    boolean hasLongData() {
        return longData != null;
    }

    /** Which parameters have long data waiting (null when none). */
    boolean[] longDataFlags() {
        if (longData == null) {
            return null;
        }
        boolean[] flags = new boolean[paramCount];
        for (int i = 0; i < paramCount; i++) {
            flags[i] = longData[i] != null;
        }
        return flags;
    }

    CompositeByteBuf longData(int param) {
        return longData == null ? null : longData[param];
    }

    /**
     * The statement was prepared on {@code conn} as {@code backendId}: that connection keeps it
     * for later executes, and closes the statements its bounded cache lets go of.
     */
    void preparedOn(BackendConnection conn, long backendId, int params, int columns) {
        List<BackendStatement> evicted = conn.statements().put(sql, new BackendStatement(backendId, params, columns));
        for (BackendStatement old : evicted) {
            long id = old.id();
            conn.sendWithoutResponse(conn.commandFrame(CommandCode.STMT_CLOSE,
                    new byte[] {(byte) id, (byte) (id >>> 8), (byte) (id >>> 16), (byte) (id >>> 24)}));
        }
    }

    /** Sends the long data collected for the next execute to {@code conn}, ahead of the execute; it is used up then. */
    void replayLongData(BackendConnection conn, long backendId) {
        for (int p = 0; p < paramCount; p++) {
            CompositeByteBuf data = longData(p);
            if (data != null) {
                conn.sendWithoutResponse(ExecutePackets.longData(conn.channel().alloc(), backendId, p, data));
            }
        }
        clearLongData();
    }

    /** COM_STMT_RESET: long data and its error are gone. */
    void reset() {
        longDataTooLong = false;
        clearLongData();
    }

    /** Long data is consumed by an execute (and by COM_STMT_RESET). */
    void clearLongData() {
        if (longData != null) {
            for (CompositeByteBuf b : longData) {
                if (b != null) {
                    b.release();
                }
            }
            longData = null;
        }
    }
}
