package io.cleave.proxy.protocol.packet.server;

import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.ServerStatus;
import io.cleave.proxy.protocol.Wire;
import io.netty.buffer.ByteBuf;

/**
 * OK packet. With DEPRECATE_EOF the same layout, headed 0xFE, also ends a result set. With
 * SESSION_TRACK the info is length-encoded and may be followed by session state changes, which
 * are kept as raw bytes.
 */
public record OkPacket(int header, long affectedRows, long lastInsertId, int statusFlags, int warnings,
                       byte[] info, byte[] sessionStateChanges) {

    public static final int HEADER = 0x00;
    public static final int EOF_HEADER = 0xfe;
    private static final byte[] EMPTY = new byte[0];

    public static OkPacket of(long affectedRows, long lastInsertId, int statusFlags, int warnings) {
        return new OkPacket(HEADER, affectedRows, lastInsertId, statusFlags, warnings, EMPTY, EMPTY);
    }

    public static OkPacket withInfo(long affectedRows, long lastInsertId, int statusFlags, int warnings, String info) {
        return new OkPacket(HEADER, affectedRows, lastInsertId, statusFlags, warnings,
                info.getBytes(java.nio.charset.StandardCharsets.UTF_8), EMPTY);
    }

    /** The OK packet that ends a result set when DEPRECATE_EOF is on. */
    public static OkPacket endOfRows(int statusFlags, int warnings) {
        return new OkPacket(EOF_HEADER, 0, 0, statusFlags, warnings, EMPTY, EMPTY);
    }

    /** This OK reporting session state changes (for clients with SESSION_TRACK). */
    public OkPacket withSessionState(byte[] changes) {
        return new OkPacket(header, affectedRows, lastInsertId, statusFlags | ServerStatus.SESSION_STATE_CHANGED, warnings,
                info, changes);
    }

    public OkPacket withStatus(int newStatus) {
        return new OkPacket(header, affectedRows, lastInsertId, newStatus, warnings, info, sessionStateChanges);
    }

    public OkPacket withLastInsertId(long id) {
        return new OkPacket(header, affectedRows, id, statusFlags, warnings, info, sessionStateChanges);
    }

    public void write(ByteBuf out, Capabilities caps) {
        out.writeByte(header);
        Wire.writeLenencInt(out, affectedRows);
        Wire.writeLenencInt(out, lastInsertId);
        out.writeShortLE(statusFlags);
        out.writeShortLE(warnings);
        if (caps.sessionTrack()) {
            if (info.length > 0 || ServerStatus.has(statusFlags, ServerStatus.SESSION_STATE_CHANGED)) {
                Wire.writeLenencBytes(out, info);
            }
            if (ServerStatus.has(statusFlags, ServerStatus.SESSION_STATE_CHANGED)) {
                Wire.writeLenencBytes(out, sessionStateChanges);
            }
        } else {
            out.writeBytes(info);
        }
    }

    public static OkPacket decode(ByteBuf in, Capabilities caps) {
        int header = in.readUnsignedByte();
        long affected = Wire.readLenencInt(in);
        long insertId = Wire.readLenencInt(in);
        int status = in.readUnsignedShortLE();
        int warnings = in.readUnsignedShortLE();
        byte[] info = EMPTY;
        byte[] session = EMPTY;
        if (caps.sessionTrack()) {
            if (in.isReadable()) {
                info = Wire.readLenencBytes(in);
            }
            if (ServerStatus.has(status, ServerStatus.SESSION_STATE_CHANGED) && in.isReadable()) {
                session = Wire.readLenencBytes(in);
            }
        } else if (in.isReadable()) {
            info = Wire.readRestBytes(in);
        }
        return new OkPacket(header, affected, insertId, status, warnings, info, session);
    }
}
