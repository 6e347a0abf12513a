package io.cleave.proxy.frontend;

import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.ServerStatus;
import io.cleave.proxy.protocol.Wire;
import io.cleave.proxy.protocol.packet.server.ColumnDefinition41;
import io.cleave.proxy.protocol.packet.server.EofPacket;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.protocol.packet.server.OkPacket;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * What a client read in answer to one command, decoded as a client library would: an OK, an
 * error, or text result sets (several when the server says more follow). Decoding checks that
 * the packets' sequence ids continue the command's (1, 2, 3, ... after a one-frame command), as a
 * client requires.
 */
record ClientReply(OkPacket ok, ErrPacket error, List<ResultSet> results) {

    /** One result set: column names, rows as text (null for NULL), and its end's status flags. */
    record ResultSet(List<String> columns, List<List<String>> rows, int status) {
    }

    boolean isOk() {
        return ok != null && results.isEmpty();
    }

    boolean isError() {
        return error != null;
    }

    /** The rows of the only result set. */
    List<List<String>> rows() {
        if (results.size() != 1) {
            throw new AssertionError("expected one result set, got " + this);
        }
        return results.get(0).rows();
    }

    /** The status flags the client was told last. */
    int status() {
        if (error != null) {
            throw new AssertionError("an error carries no status: " + error);
        }
        return results.isEmpty() ? ok.statusFlags() : results.get(results.size() - 1).status();
    }

    boolean inTransaction() {
        return ServerStatus.has(status(), ServerStatus.IN_TRANS);
    }

    static ClientReply decode(List<ByteBuf> frames, Capabilities caps) {
        return decode(frames, caps, 1);
    }

    /** {@code firstSequence}: one past the command's last frame (1 unless it took several). */
    static ClientReply decode(List<ByteBuf> frames, Capabilities caps, int firstSequence) {
        if (frames.isEmpty()) {
            throw new AssertionError("no reply");
        }
        int expectedSequence = firstSequence;
        for (ByteBuf f : frames) {
            if (Frames.sequence(f) != (expectedSequence & 0xff)) {
                throw new AssertionError("packet " + expectedSequence + " has sequence id " + Frames.sequence(f));
            }
            expectedSequence++;
        }
        int i = 0;
        List<ResultSet> results = new ArrayList<>();
        while (true) {
            ByteBuf p = Frames.payload(frames.get(i++));
            int first = p.getUnsignedByte(p.readerIndex());
            if (first == 0xff) {
                return new ClientReply(null, ErrPacket.decode(p), results);
            }
            if (first == 0x00) {
                OkPacket ok = OkPacket.decode(p, caps);
                if (!ServerStatus.has(ok.statusFlags(), ServerStatus.MORE_RESULTS_EXISTS)) {
                    return end(frames, i, new ClientReply(ok, null, results));
                }
                continue;
            }
            int count = (int) Wire.readLenencInt(p);
            List<String> columns = new ArrayList<>();
            for (int c = 0; c < count; c++) {
                columns.add(ColumnDefinition41.decode(Frames.payload(frames.get(i++))).name());
            }
            if (!caps.deprecateEof()) {
                i++;
            }
            List<List<String>> rows = new ArrayList<>();
            int status;
            while (true) {
                ByteBuf row = Frames.payload(frames.get(i++));
                int head = row.getUnsignedByte(row.readerIndex());
                if (head == 0xfe && row.readableBytes() < 0xffffff) {
                    status = caps.deprecateEof() ? OkPacket.decode(row, caps).statusFlags()
                            : EofPacket.decode(row).statusFlags();
                    break;
                }
                if (head == 0xff) {
                    return new ClientReply(null, ErrPacket.decode(row), results);
                }
                List<String> values = new ArrayList<>();
                for (int c = 0; c < count; c++) {
                    if (row.getUnsignedByte(row.readerIndex()) == Wire.NULL_MARKER) {
                        row.skipBytes(1);
                        values.add(null);
                    } else {
                        values.add(new String(Wire.readLenencBytes(row), StandardCharsets.UTF_8));
                    }
                }
                rows.add(values);
            }
            results.add(new ResultSet(columns, rows, status));
            if (!ServerStatus.has(status, ServerStatus.MORE_RESULTS_EXISTS)) {
                return end(frames, i, new ClientReply(null, null, results));
            }
        }
    }

    private static ClientReply end(List<ByteBuf> frames, int read, ClientReply reply) {
        if (read != frames.size()) {
            throw new AssertionError((frames.size() - read) + " packets after the end of the reply " + reply);
        }
        return reply;
    }

    @Override
    public String toString() {
        if (error != null) {
            return "ERR " + error.errorCode() + " (" + error.sqlState() + ") " + error.message();
        }
        return results.isEmpty() ? "OK affected " + ok.affectedRows() + " id " + ok.lastInsertId()
                + " status 0x" + Integer.toHexString(ok.statusFlags()) : "results " + results;
    }
}
