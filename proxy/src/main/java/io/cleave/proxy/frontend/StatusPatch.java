package io.cleave.proxy.frontend;

import io.cleave.proxy.protocol.Frames;
import io.netty.buffer.ByteBuf;

/**
 * Sets server status flags in a relayed OK or EOF frame in place, for when the session's state
 * differs from the connection's (a statement run outside a transaction the client has begun).
 */
final class StatusPatch {

    private StatusPatch() {
    }

    static void or(ByteBuf frame, int flags) {
        int payload = frame.readerIndex() + Frames.HEADER_SIZE;
        int length = Frames.payloadLength(frame);
        int header = frame.getUnsignedByte(payload);
        int statusAt;
        if (header == 0xfe && length <= 5) {
            statusAt = payload + 3;
        } else if (header == 0x00 || header == 0xfe) {
            int pos = payload + 1;
            pos += lenencSize(frame.getUnsignedByte(pos));
            pos += lenencSize(frame.getUnsignedByte(pos));
            statusAt = pos;
        } else {
            return;
        }
        if (statusAt + 2 <= payload + length) {
            frame.setShortLE(statusAt, frame.getUnsignedShortLE(statusAt) | flags);
        }
    }

    private static int lenencSize(int first) {
        return first < 0xfb ? 1 : first == 0xfc ? 3 : first == 0xfd ? 4 : 9;
    }
}
