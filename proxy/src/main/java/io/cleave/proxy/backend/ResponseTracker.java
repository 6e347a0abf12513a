package io.cleave.proxy.backend;

import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.MalformedPacketException;
import io.cleave.proxy.protocol.ServerStatus;
import io.cleave.proxy.protocol.Wire;
import io.netty.buffer.ByteBuf;

/**
 * Follows one command's response frame by frame, reading only packet headers and first bytes, so
 * rows can be relayed untouched while the proxy still knows where the response ends, whether
 * more result sets follow, and the final server status. Reused: {@link #start} resets it.
 */
public final class ResponseTracker {

    private enum State { FIRST, COLUMNS, COLUMNS_EOF, ROWS, PREPARE_PARAMS, PREPARE_PARAMS_EOF, PREPARE_COLUMNS,
        PREPARE_COLUMNS_EOF, DONE }

    private boolean deprecateEof;
    private ResponseKind kind;
    private State state;
    private long remaining;
    private int prepareColumns;
    private boolean continuation;
    private boolean continuationOfRow;

    private int statusFlags;
    private boolean statusSeen;
    private int warnings;
    private long affectedRows;
    private long lastInsertId;
    private boolean error;
    private int errorCode;
    private int resultSets;
    /** Whether any of the response's results was a result set (columns and rows), not an OK. */
    private boolean resultSetSeen;
    /** Rows of the response's last result set so far (FOUND_ROWS() counts them after a SELECT). */
    private long rows;

    public void start(ResponseKind kind, boolean deprecateEof) {
        this.kind = kind;
        this.deprecateEof = deprecateEof;
        this.state = kind == ResponseKind.FETCH ? State.ROWS
                : kind == ResponseKind.FIELD_LIST ? State.COLUMNS : State.FIRST;
        this.remaining = kind == ResponseKind.FIELD_LIST ? Long.MAX_VALUE : 0;
        this.continuation = false;
        this.error = false;
        this.errorCode = 0;
        this.statusFlags = 0;
        this.statusSeen = false;
        this.warnings = 0;
        this.affectedRows = 0;
        this.lastInsertId = 0;
        this.resultSets = 0;
        this.resultSetSeen = false;
        this.rows = 0;
    }

    /** Classifies the next frame (reader index at its header) and advances. */
    public FrameKind feed(ByteBuf frame) {
        if (state == State.DONE) {
            throw new MalformedPacketException("server sent a packet after its response was complete");
        }
        int length = Frames.payloadLength(frame);
        if (continuation) {
            continuation = length == Frames.MAX_PAYLOAD;
            if (!continuation) {
                endOfLongPacket();
            }
            return FrameKind.CONTINUATION;
        }
        int first = Frames.firstByte(frame);
        if (length == Frames.MAX_PAYLOAD) {
            // A 16 MB packet: only rows and column values can be that large.
            continuation = true;
            continuationOfRow = state == State.ROWS;
            if (state != State.ROWS && state != State.COLUMNS) {
                throw new MalformedPacketException("unexpected 16 MB packet in state " + state);
            }
            if (state == State.ROWS) {
                rows++;
                return FrameKind.ROW;
            }
            return FrameKind.COLUMN_DEFINITION;
        }
        switch (state) {
            case FIRST:
                return first(frame, first);
            case COLUMNS:
                if (kind == ResponseKind.FIELD_LIST) {
                    if (first == 0xff) {
                        return err(frame);
                    }
                    if (first == 0xfe) {
                        terminator(frame);
                        return FrameKind.EOF;
                    }
                    return FrameKind.COLUMN_DEFINITION;
                }
                if (--remaining == 0) {
                    state = deprecateEof ? State.ROWS : State.COLUMNS_EOF;
                }
                return FrameKind.COLUMN_DEFINITION;
            case COLUMNS_EOF:
                expectEof(first);
                readEofStatus(frame);
                // A cursor was opened: no rows follow until COM_STMT_FETCH.
                if (ServerStatus.has(statusFlags, ServerStatus.CURSOR_EXISTS)) {
                    state = State.DONE;
                } else {
                    state = State.ROWS;
                }
                return FrameKind.EOF;
            case ROWS:
                if (first == 0xfe && length < 0xffffff) {
                    terminator(frame);
                    return FrameKind.EOF;
                }
                if (first == 0xff) {
                    return err(frame);
                }
                rows++;
                return FrameKind.ROW;
            case PREPARE_PARAMS:
                if (--remaining == 0) {
                    state = deprecateEof ? afterPrepareParams() : State.PREPARE_PARAMS_EOF;
                }
                return FrameKind.PARAM_DEFINITION;
            case PREPARE_PARAMS_EOF:
                expectEof(first);
                state = afterPrepareParams();
                return FrameKind.EOF;
            case PREPARE_COLUMNS:
                if (--remaining == 0) {
                    state = deprecateEof ? State.DONE : State.PREPARE_COLUMNS_EOF;
                }
                return FrameKind.COLUMN_DEFINITION;
            case PREPARE_COLUMNS_EOF:
                expectEof(first);
                state = State.DONE;
                return FrameKind.EOF;
            default:
                throw new IllegalStateException(state.name());
        }
    }

    private FrameKind first(ByteBuf frame, int first) {
        if (first == 0xff) {
            return err(frame);
        }
        switch (kind) {
            case STATISTICS:
                state = State.DONE;
                return FrameKind.STRING;
            case SIMPLE:
                if (first == 0x00 || first == 0xfe) {
                    if (first == 0x00 || Frames.payloadLength(frame) > 5) {
                        readOk(frame);
                    } else {
                        readEofStatus(frame);
                    }
                    state = State.DONE;
                    return first == 0x00 ? FrameKind.OK : FrameKind.EOF;
                }
                throw new MalformedPacketException("expected OK or ERR, got 0x" + Integer.toHexString(first));
            case CHANGE_USER:
                if (first == 0x00) {
                    readOk(frame);
                    state = State.DONE;
                    return FrameKind.OK;
                }
                return FrameKind.AUTH_ROUND;
            case PREPARE:
                if (first != 0x00) {
                    throw new MalformedPacketException("expected PREPARE_OK, got 0x" + Integer.toHexString(first));
                }
                ByteBuf p = Frames.payload(frame);
                int columns = p.getUnsignedShortLE(p.readerIndex() + 5);
                int params = p.getUnsignedShortLE(p.readerIndex() + 7);
                prepareColumns = columns;
                if (params > 0) {
                    remaining = params;
                    state = State.PREPARE_PARAMS;
                } else {
                    state = afterPrepareParams();
                }
                return FrameKind.PREPARE_OK;
            default:
                break;
        }
        if (first == 0x00) {
            readOk(frame);
            resultSets++;
            state = ServerStatus.has(statusFlags, ServerStatus.MORE_RESULTS_EXISTS) ? State.FIRST : State.DONE;
            return FrameKind.OK;
        }
        if (first == 0xfb) {
            throw new MalformedPacketException("server requested LOCAL INFILE, which the proxy does not relay");
        }
        ByteBuf payload = Frames.payload(frame);
        remaining = Wire.readLenencInt(payload);
        if (remaining <= 0) {
            throw new MalformedPacketException("result set with " + remaining + " columns");
        }
        state = State.COLUMNS;
        resultSetSeen = true;
        rows = 0;
        return FrameKind.COLUMN_COUNT;
    }

    private State afterPrepareParams() {
        if (prepareColumns > 0) {
            remaining = prepareColumns;
            return State.PREPARE_COLUMNS;
        }
        return State.DONE;
    }

    private void endOfLongPacket() {
        if (!continuationOfRow && state == State.COLUMNS && --remaining == 0) {
            state = deprecateEof ? State.ROWS : State.COLUMNS_EOF;
        }
    }

    private FrameKind err(ByteBuf frame) {
        error = true;
        errorCode = Frames.payloadLength(frame) >= 3
                ? frame.getUnsignedShortLE(frame.readerIndex() + Frames.HEADER_SIZE + 1) : 0;
        state = State.DONE;
        return FrameKind.ERR;
    }

    private void terminator(ByteBuf frame) {
        if (deprecateEof && Frames.payloadLength(frame) > 5) {
            readOk(frame);
        } else {
            readEofStatus(frame);
        }
        resultSets++;
        state = ServerStatus.has(statusFlags, ServerStatus.MORE_RESULTS_EXISTS) && kind == ResponseKind.RESULT
                ? State.FIRST : State.DONE;
    }

    private void expectEof(int first) {
        if (first != 0xfe) {
            throw new MalformedPacketException("expected EOF, got 0x" + Integer.toHexString(first));
        }
    }

    private void readEofStatus(ByteBuf frame) {
        ByteBuf p = Frames.payload(frame);
        if (p.readableBytes() >= 5) {
            warnings = p.getUnsignedShortLE(p.readerIndex() + 1);
            statusFlags = p.getUnsignedShortLE(p.readerIndex() + 3);
            statusSeen = true;
        }
    }

    private void readOk(ByteBuf frame) {
        ByteBuf p = Frames.payload(frame);
        p.skipBytes(1);
        affectedRows = Wire.readLenencInt(p);
        lastInsertId = Wire.readLenencInt(p);
        statusFlags = p.readUnsignedShortLE();
        statusSeen = true;
        warnings = p.readUnsignedShortLE();
    }

    public boolean isComplete() {
        return state == State.DONE;
    }

    public boolean isError() {
        return error;
    }

    /** The error code of the ERR that ended the response (0 when none). */
    public int errorCode() {
        return errorCode;
    }

    /** Status flags of the last OK/EOF seen (the final one once complete). */
    public int statusFlags() {
        return statusFlags;
    }

    /**
     * Whether the response carried status flags at all: an ERR does not, nor a PREPARE_OK without
     * EOFs, and the connection's transaction state is then what it was before.
     */
    public boolean statusSeen() {
        return statusSeen;
    }

    public int warnings() {
        return warnings;
    }

    public long affectedRows() {
        return affectedRows;
    }

    public long lastInsertId() {
        return lastInsertId;
    }

    public boolean resultSetSeen() {
        return resultSetSeen;
    }

    /** The rows of the response's last result set (0 when it had none). */
    public long rows() {
        return rows;
    }

    public int resultSets() {
        return resultSets;
    }

    public ResponseKind kind() {
        return kind;
    }
}
