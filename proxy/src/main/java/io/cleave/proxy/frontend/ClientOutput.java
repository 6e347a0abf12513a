package io.cleave.proxy.frontend;

import io.cleave.proxy.cut.CutWindows;
import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.packet.server.EofPacket;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.protocol.packet.server.OkPacket;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Writes packets to the client with the right sequence ids: a response continues the sequence of
 * the command it answers. Nothing is flushed until {@link #flush()}, and nothing while a cut's
 * snapshots are being opened ({@link CutWindows#holdAnswer}): what was written then goes out when
 * they are.
 */
final class ClientOutput {

    /** How long a close waits for the last answer to reach a client that does not read it. */
    private static final long CLOSE_AFTER_WRITES_SECONDS = 30;

    private final Channel channel;
    private final CutWindows cuts;
    /** Made once: a flush held behind a cut runs this when the cut's window closes. */
    private final Runnable flushAfterWindow = this::flushAfterWindow;
    private boolean flushHeld;
    /** Close once the held flush has gone out: closing first would drop what was written. */
    private boolean closeAfterFlush;
    private Capabilities capabilities = Capabilities.PROXY_SERVER;
    private int sequence;

    ClientOutput(Channel channel, CutWindows cuts) {
        this.channel = channel;
        this.cuts = cuts;
    }

    Channel channel() {
        return channel;
    }

    void capabilities(Capabilities caps) {
        this.capabilities = caps;
    }

    Capabilities capabilities() {
        return capabilities;
    }

    /** The next packet answers a command whose last frame had {@code commandSequence}. */
    void respondTo(int commandSequence) {
        sequence = (commandSequence + 1) & 0xff;
    }

    int nextSequence() {
        int s = sequence;
        sequence = (sequence + 1) & 0xff;
        return s;
    }

    /** Relays a frame produced elsewhere (a backend), giving it the next sequence id. */
    void relay(ByteBuf frame) {
        Frames.setSequence(frame, nextSequence());
        channel.write(frame, channel.voidPromise());
    }

    void packet(int sizeHint, Consumer<ByteBuf> payload) {
        ByteBuf buf = Frames.begin(channel.alloc(), sizeHint);
        payload.accept(buf);
        int payloadLength = buf.readableBytes() - Frames.HEADER_SIZE;
        int seq = sequence;
        sequence = (sequence + Frames.frameCount(payloadLength)) & 0xff;
        channel.write(Frames.finish(buf, seq), channel.voidPromise());
    }

    void ok(OkPacket ok) {
        packet(16 + ok.info().length, b -> ok.write(b, capabilities));
    }

    void ok(int status) {
        ok(OkPacket.of(0, 0, status, 0));
    }

    void error(ErrPacket err) {
        packet(16 + err.message().length(), err::write);
    }

    void error(int code, String sqlState, String message) {
        error(new ErrPacket(code, sqlState, message));
    }

    /** The end-of-result-set marker this client expects: classic EOF or an 0xFE-headed OK. */
    void endOfRows(int status, int warnings) {
        if (capabilities.deprecateEof()) {
            ok(OkPacket.endOfRows(status, warnings));
        } else {
            packet(5, b -> new EofPacket(warnings, status).write(b));
        }
    }

    /** The EOF after column definitions, which only clients without DEPRECATE_EOF get. */
    void endOfColumns(int status) {
        if (!capabilities.deprecateEof()) {
            packet(5, b -> new EofPacket(0, status).write(b));
        }
    }

    void flush() {
        if (flushHeld) {
            // Already due when the window closes.
            return;
        }
        if (cuts.holdAnswer(channel.eventLoop(), flushAfterWindow)) {
            flushHeld = true;
            return;
        }
        channel.flush();
    }

    private void flushAfterWindow() {
        flushHeld = false;
        if (closeAfterFlush) {
            closeAfterWrites();
        } else {
            channel.flush();
        }
    }

    /**
     * Closes the connection once what was written has reached the client: the last answer before
     * a close (an error saying why, the OK of COMMIT RELEASE) must not be dropped with the
     * connection, neither when its flush is held behind a cut's window nor when the socket cannot
     * take it at once.
     */
    void close() {
        flush();
        if (flushHeld) {
            closeAfterFlush = true;
            return;
        }
        closeAfterWrites();
    }

    private void closeAfterWrites() {
        channel.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        // A client that stopped reading never lets those writes finish: it is closed anyway, as a
        // server gives up after net_write_timeout.
        channel.eventLoop().schedule(() -> {
            channel.close();
        }, CLOSE_AFTER_WRITES_SECONDS, TimeUnit.SECONDS);
    }
}
