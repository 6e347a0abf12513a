package io.cleave.proxy.frontend;

import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.packet.client.CommandCode;
import io.cleave.proxy.protocol.packet.client.HandshakeResponse41;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.protocol.packet.server.HandshakeV10;
import io.cleave.proxy.server.ProxyRuntime;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.channel.embedded.EmbeddedChannel;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A client of the proxy on an {@link EmbeddedChannel} with the proxy's real client pipeline
 * ({@link FrontendInitializer}): it logs in as a passwordless user, sends commands as frames and
 * reads what the proxy wrote back. Everything runs on the test's thread.
 */
final class EmbeddedClient {

    private final EmbeddedChannel channel;
    private final Capabilities capabilities;
    /** The sequence id the answer to the last command starts at: one past the command's last frame. */
    private int replySequence = 1;
    private ByteBuf lastCommand;

    /**
     * Logs in; {@code shardsAnswer} lets the shards answer what the login asks them (whether the
     * database exists).
     */
    EmbeddedClient(ProxyRuntime runtime, Capabilities capabilities, String user, String database,
                   java.util.function.Consumer<EmbeddedChannel> shardsAnswer) {
        this(new EmbeddedChannel(new FrontendInitializer(runtime)), capabilities, user, database, shardsAnswer);
    }

    /** Logs in on {@code channel}, which runs the proxy's client pipeline (and may have sent bytes already). */
    EmbeddedClient(EmbeddedChannel channel, Capabilities capabilities, String user, String database,
                   java.util.function.Consumer<EmbeddedChannel> shardsAnswer) {
        this.channel = channel;
        this.capabilities = capabilities;
        ErrPacket refused = logIn(channel, capabilities, user, database, shardsAnswer);
        if (refused != null) {
            throw new AssertionError("login refused: " + refused);
        }
    }

    /**
     * Logs in on a new connection as the constructor does and returns the proxy's refusal (null
     * when it took the login); fails when the proxy has not answered once the shards answered.
     */
    static ErrPacket refusal(ProxyRuntime runtime, Capabilities capabilities, String user, String database,
                             java.util.function.Consumer<EmbeddedChannel> shardsAnswer) {
        return refusal(new EmbeddedChannel(new FrontendInitializer(runtime)), capabilities, user, database, shardsAnswer);
    }

    /** As above, on {@code channel}, which runs the proxy's client pipeline. */
    static ErrPacket refusal(EmbeddedChannel channel, Capabilities capabilities, String user, String database,
                             java.util.function.Consumer<EmbeddedChannel> shardsAnswer) {
        try {
            return logIn(channel, capabilities, user, database, shardsAnswer);
        } finally {
            channel.finishAndReleaseAll();
        }
    }

    private static ErrPacket logIn(EmbeddedChannel channel, Capabilities capabilities, String user, String database,
                                   java.util.function.Consumer<EmbeddedChannel> shardsAnswer) {
        List<ByteBuf> greeting = frames(channel);
        HandshakeV10.decode(Frames.payload(greeting.get(0)));
        release(greeting);
        HandshakeResponse41 login = new HandshakeResponse41(capabilities, 1 << 24, 45, user, new byte[0], database,
                "mysql_native_password", Map.of());
        ByteBuf frame = Frames.begin(UnpooledByteBufAllocator.DEFAULT, 64);
        login.write(frame);
        channel.writeInbound(Frames.finish(frame, 1));
        shardsAnswer.accept(channel);
        List<ByteBuf> answer = frames(channel);
        if (answer.isEmpty()) {
            throw new AssertionError("the proxy did not answer the login");
        }
        try {
            return Frames.firstByte(answer.get(0)) == 0x00 ? null : ErrPacket.decode(Frames.payload(answer.get(0)));
        } finally {
            release(answer);
        }
    }

    EmbeddedChannel channel() {
        return channel;
    }

    Capabilities capabilities() {
        return capabilities;
    }

    /** Sends a command in one frame (sequence 0). */
    void send(CommandCode command, byte[] body) {
        send(command, body, 0);
    }

    /** Sends a command in one frame of sequence id {@code sequence} (a client that lost count when not 0). */
    void send(CommandCode command, byte[] body, int sequence) {
        ByteBuf frame = Frames.begin(UnpooledByteBufAllocator.DEFAULT, 1 + body.length);
        frame.writeByte(command.code());
        frame.writeBytes(body);
        replySequence = sequence + Frames.frameCount(1 + body.length);
        lastCommand = Frames.finish(frame, sequence);
        channel.writeInbound(lastCommand);
    }

    /** Whether the proxy has let go of the last command's frame: the command has ended. */
    boolean lastCommandEnded() {
        channel.runPendingTasks();
        return lastCommand.refCnt() == 0;
    }

    void query(String sql) {
        send(CommandCode.QUERY, sql.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Sends {@code sql} as a socket read of one event-loop pass would deliver it: read, but the
     * tasks queued meanwhile (those that end the pass) run only at the next {@link FakeProxy#pump}.
     */
    void queryInPass(String sql) {
        sendInPass(CommandCode.QUERY, sql.getBytes(StandardCharsets.UTF_8));
    }

    void sendInPass(CommandCode command, byte[] body) {
        ByteBuf frame = Frames.begin(UnpooledByteBufAllocator.DEFAULT, 1 + body.length);
        frame.writeByte(command.code());
        frame.writeBytes(body);
        replySequence = Frames.frameCount(1 + body.length);
        lastCommand = Frames.finish(frame, 0);
        channel.pipeline().fireChannelRead(lastCommand);
        channel.pipeline().fireChannelReadComplete();
    }

    /** Whatever the proxy wrote since the last read, decoded as the answer to one command. */
    ClientReply reply() {
        List<ByteBuf> frames = frames();
        try {
            return ClientReply.decode(frames, capabilities, replySequence);
        } finally {
            release(frames);
        }
    }

    /** Raw frames the proxy wrote since the last read (the caller releases them). */
    List<ByteBuf> frames() {
        return frames(channel);
    }

    private static List<ByteBuf> frames(EmbeddedChannel channel) {
        channel.runPendingTasks();
        List<ByteBuf> out = new ArrayList<>();
        ByteBuf f;
        while ((f = channel.readOutbound()) != null) {
            if (f.isReadable()) {
                out.add(f);
            } else {
                // The empty write a close waits behind (so that what was written goes out first).
                f.release();
            }
        }
        return out;
    }

    boolean hasReply() {
        channel.runPendingTasks();
        return !channel.outboundMessages().isEmpty();
    }

    boolean isOpen() {
        return channel.isOpen();
    }

    /** The client goes away (its socket closes). */
    void disconnect() {
        channel.close();
        channel.runPendingTasks();
    }

    static void release(List<ByteBuf> frames) {
        frames.forEach(ByteBuf::release);
    }
}
