package io.cleave.proxy.backend;

import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.ColumnType;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.ServerStatus;
import io.cleave.proxy.protocol.Wire;
import io.cleave.proxy.protocol.packet.server.ColumnDefinition41;
import io.cleave.proxy.protocol.packet.server.EofPacket;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.protocol.packet.server.OkPacket;
import io.cleave.proxy.protocol.packet.server.StmtPrepareOk;
import io.netty.buffer.ByteBuf;

import java.util.Arrays;
import java.util.List;

/**
 * What a {@link FakeShard} answers a command with: the packets a server sends, written with the
 * status flags of the connection and in the form its capabilities ask for (EOF or 0xFE-headed OK
 * after rows).
 */
public sealed interface ShardReply {

    /** A result set column: its name and type. */
    record Column(String name, ColumnType type) {

        ColumnDefinition41 definition() {
            boolean numeric = type.isInteger() || type.isDecimal() || type.isFloatingPoint();
            return new ColumnDefinition41("app", "t", "t", name, name, numeric ? 63 : 45, numeric ? 21 : 1024,
                    type.code(), numeric ? ColumnDefinition41.FLAG_BINARY | ColumnDefinition41.FLAG_NUM : 0, 0);
        }
    }

    static ShardReply ok() {
        return new Ok(0, 0, 0);
    }

    /** OK with {@code flags} in its status besides the connection's (SERVER_STATUS_DB_DROPPED after a DROP DATABASE). */
    static ShardReply ok(int flags) {
        return new Ok(0, 0, flags);
    }

    static ShardReply ok(long affectedRows, long lastInsertId) {
        return new Ok(affectedRows, lastInsertId, 0);
    }

    static ShardReply error(int code, String sqlState, String message) {
        return new Error(new ErrPacket(code, sqlState, message));
    }

    /** A text result set; a null value is SQL NULL. */
    static ShardReply rows(List<Column> columns, String[]... rows) {
        return new Rows(List.copyOf(columns), Arrays.asList(rows));
    }

    static Column column(String name, ColumnType type) {
        return new Column(name, type);
    }

    /** Several results in one answer (a multi-statement, a procedure): all but the last say more follow. */
    static ShardReply results(ShardReply... parts) {
        return new Results(List.of(parts));
    }

    /** COM_STMT_PREPARE's answer for a statement without result columns. */
    static ShardReply prepared(long statementId, int params) {
        return new Prepared(statementId, params);
    }

    /** No answer at all: the statement hangs, as on a server waiting for a lock, until the connection goes. */
    static ShardReply noAnswer() {
        return new NoAnswer();
    }

    /**
     * The first {@code frames} frames of {@code whole} only: the rest never comes, as from a server
     * still sending a result the client has not read yet.
     */
    static ShardReply cutShort(ShardReply whole, int frames) {
        return new CutShort(whole, frames);
    }

    default boolean isError() {
        return false;
    }

    /** Writes the reply's frames from {@code sequence} on; returns the next sequence id. */
    int write(ByteBuf out, int sequence, int status, boolean deprecateEof);

    default void write(ByteBuf out, int status, boolean deprecateEof) {
        write(out, 1, status, deprecateEof);
    }

    private static Capabilities capabilities(boolean deprecateEof) {
        Capabilities c = new Capabilities(BackendAuthHandler.BASE_CLIENT_FLAGS);
        return deprecateEof ? c.with(Capabilities.DEPRECATE_EOF) : c;
    }

    record Ok(long affectedRows, long lastInsertId, int flags) implements ShardReply {
        @Override
        public int write(ByteBuf out, int sequence, int status, boolean deprecateEof) {
            FakeShard.writeFrame(out, sequence, b -> OkPacket.of(affectedRows, lastInsertId, status | flags, 0)
                    .write(b, capabilities(deprecateEof)));
            return sequence + 1;
        }
    }

    record Error(ErrPacket packet) implements ShardReply {
        @Override
        public boolean isError() {
            return true;
        }

        @Override
        public int write(ByteBuf out, int sequence, int status, boolean deprecateEof) {
            FakeShard.writeFrame(out, sequence, packet::write);
            return sequence + 1;
        }
    }

    record Rows(List<Column> columns, List<String[]> rows) implements ShardReply {
        @Override
        public int write(ByteBuf out, int sequence, int status, boolean deprecateEof) {
            int seq = sequence;
            FakeShard.writeFrame(out, seq++, b -> Wire.writeLenencInt(b, columns.size()));
            for (Column c : columns) {
                FakeShard.writeFrame(out, seq++, b -> c.definition().write(b));
            }
            if (!deprecateEof) {
                FakeShard.writeFrame(out, seq++, b -> new EofPacket(0, status).write(b));
            }
            for (String[] row : rows) {
                FakeShard.writeFrame(out, seq++, b -> {
                    for (String value : row) {
                        if (value == null) {
                            b.writeByte(Wire.NULL_MARKER);
                        } else {
                            Wire.writeLenencString(b, value);
                        }
                    }
                });
            }
            if (deprecateEof) {
                FakeShard.writeFrame(out, seq++, b -> OkPacket.endOfRows(status, 0).write(b, capabilities(true)));
            } else {
                FakeShard.writeFrame(out, seq++, b -> new EofPacket(0, status).write(b));
            }
            return seq;
        }
    }

    record Results(List<ShardReply> parts) implements ShardReply {
        @Override
        public boolean isError() {
            return parts.stream().anyMatch(ShardReply::isError);
        }

        @Override
        public int write(ByteBuf out, int sequence, int status, boolean deprecateEof) {
            int seq = sequence;
            for (int i = 0; i < parts.size(); i++) {
                boolean more = i < parts.size() - 1;
                seq = parts.get(i).write(out, seq, more ? status | ServerStatus.MORE_RESULTS_EXISTS : status,
                        deprecateEof);
            }
            return seq;
        }
    }

    record CutShort(ShardReply whole, int frames) implements ShardReply {
        @Override
        public int write(ByteBuf out, int sequence, int status, boolean deprecateEof) {
            ByteBuf all = out.alloc().buffer();
            try {
                whole.write(all, sequence, status, deprecateEof);
                for (int i = 0; i < frames && all.isReadable(); i++) {
                    int length = all.getUnsignedMediumLE(all.readerIndex());
                    out.writeBytes(all, Frames.HEADER_SIZE + length);
                }
            } finally {
                all.release();
            }
            return sequence + frames;
        }
    }

    record NoAnswer() implements ShardReply {
        @Override
        public int write(ByteBuf out, int sequence, int status, boolean deprecateEof) {
            return sequence;
        }
    }

    record Prepared(long statementId, int params) implements ShardReply {
        @Override
        public int write(ByteBuf out, int sequence, int status, boolean deprecateEof) {
            int seq = sequence;
            FakeShard.writeFrame(out, seq++, b -> new StmtPrepareOk(statementId, 0, params, 0).write(b));
            Column param = new Column("?", ColumnType.VAR_STRING);
            for (int p = 0; p < params; p++) {
                FakeShard.writeFrame(out, seq++, b -> param.definition().write(b));
            }
            if (params > 0 && !deprecateEof) {
                FakeShard.writeFrame(out, seq++, b -> new EofPacket(0, status).write(b));
            }
            return seq;
        }
    }
}
