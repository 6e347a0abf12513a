package io.cleave.proxy.frontend;

import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.PacketAssembler;
import io.cleave.proxy.protocol.PacketTooLargeException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;

import java.util.ArrayDeque;

/**
 * Turns a client's frames into {@link Command}s, one at a time: a command of 16 MB or more is
 * joined from its frames first, and frames that arrive while a command runs wait (the channel
 * stops reading meanwhile, so a pipelining client is held back rather than buffered without
 * bound). Sets the sequence id the response continues from.
 */
final class CommandReader {

    private final Session session;
    private final Command.End end;
    private final Channel channel;
    private final PacketAssembler assembler;
    private final ArrayDeque<ByteBuf> queued = new ArrayDeque<>();
    private boolean assembling;
    private boolean busy;
    /** Counts commands that ended (a move's cutover tells one command from the next by it). */
    private long commandSerial;

    CommandReader(Session session, Command.End end) {
        this.session = session;
        this.end = end;
        this.channel = session.output().channel();
        this.assembler = new PacketAssembler(session.runtime().config().maxAllowedPacket());
    }

    /**
     * A frame from the client (owned): the command it completes, or null while a command runs or
     * a long command's frames are still coming.
     *
     * @throws PacketTooLargeException when a joined command exceeds max_allowed_packet
     * @throws OutOfOrder                when a command does not start at sequence id 0
     */
    Command add(ByteBuf frame) {
        if (busy) {
            queued.add(frame);
            channel.config().setAutoRead(false);
            return null;
        }
        return read(frame);
    }

    /** A command frame whose sequence id is not 0 (the response to it is set to continue from that id). */
    static final class OutOfOrder extends RuntimeException {
        OutOfOrder() {
            super("Got packets out of order", null, false, false);
        }
    }

    /** The running command ended: the next one, from the frames that waited meanwhile, or null. */
    Command next() {
        busy = false;
        commandSerial++;
        while (!queued.isEmpty()) {
            Command next = read(queued.poll());
            if (next != null) {
                return next;
            }
        }
        channel.config().setAutoRead(true);
        return null;
    }

    /** A command is running. */
    boolean busy() {
        return busy;
    }

    long commandSerial() {
        return commandSerial;
    }

    /** The client is gone: frames that waited are dropped. */
    void close() {
        while (!queued.isEmpty()) {
            queued.poll().release();
        }
    }

    private Command read(ByteBuf frame) {
        if (!assembling && Frames.sequence(frame) != 0) {
            // Every command starts at sequence 0. A client that lost count cannot be trusted with the
            // stream any more: answered by the proxy as a server answers it, never passed on to a shard.
            session.output().respondTo(Frames.sequence(frame));
            frame.release();
            throw new OutOfOrder();
        }
        if (Frames.payloadLength(frame) < Frames.MAX_PAYLOAD && !assembling) {
            session.output().respondTo(Frames.sequence(frame));
            busy = true;
            return new Command(session, end, frame, Frames.payload(frame), null);
        }
        assembling = true;
        ByteBuf whole;
        try {
            whole = assembler.add(channel.alloc(), frame);
        } catch (PacketTooLargeException e) {
            session.output().respondTo(assembler.lastSequence());
            throw e;
        }
        if (whole == null) {
            return null;
        }
        assembling = false;
        session.output().respondTo(assembler.lastSequence());
        busy = true;
        // Read from the joined payload; relay a re-framed copy.
        ByteBuf copy = Frames.begin(channel.alloc(), whole.readableBytes());
        copy.writeBytes(whole, whole.readerIndex(), whole.readableBytes());
        return new Command(session, end, Frames.finish(copy, 0), whole, whole);
    }
}
