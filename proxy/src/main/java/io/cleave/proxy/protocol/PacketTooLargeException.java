package io.cleave.proxy.protocol;

/** A packet larger than max_allowed_packet (ER_NET_PACKET_TOO_LARGE, 1153 / 08S01). */
public final class PacketTooLargeException extends RuntimeException {

    public PacketTooLargeException(long size, long limit) {
        super("Got a packet bigger than 'max_allowed_packet' bytes (" + size + " > " + limit + ")");
    }
}
