package io.cleave.proxy.frontend;

import io.cleave.proxy.auth.AuthPlugin;
import io.cleave.proxy.auth.Scrambles;
import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.MalformedPacketException;
import io.cleave.proxy.protocol.ServerStatus;
import io.cleave.proxy.protocol.packet.client.HandshakeResponse41;
import io.cleave.proxy.protocol.packet.server.AuthMoreData;
import io.cleave.proxy.protocol.packet.server.AuthSwitchRequest;
import io.cleave.proxy.protocol.packet.server.HandshakeV10;
import io.cleave.proxy.server.ProxyRuntime;
import io.cleave.proxy.session.Charset;
import io.cleave.proxy.session.Collations;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;

/**
 * One client connection: sends the handshake, runs the login, then hands every frame to the
 * {@link ClientSession}. A malformed packet gets an error and a closed connection.
 */
public final class FrontendHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(FrontendHandler.class);

    private enum Phase { HANDSHAKE_SENT, LOGIN, COMMAND, CLOSED }

    private final ProxyRuntime runtime;
    private Phase phase = Phase.HANDSHAKE_SENT;
    private ClientOutput output;
    private ClientSession session;
    private ClientLogin login;
    private HandshakeResponse41 response;
    private byte[] scramble;
    private long connectionId;
    private boolean tls;

    public FrontendHandler(ProxyRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        runtime.metrics().clientConnected();
        output = new ClientOutput(ctx.channel());
        connectionId = runtime.nextConnectionId();
        scramble = Scrambles.newScramble();
        Capabilities offered = runtime.sslContext() == null
                ? Capabilities.PROXY_SERVER.without(Capabilities.SSL) : Capabilities.PROXY_SERVER;
        HandshakeV10 hs = new HandshakeV10(runtime.serverVersion(), connectionId, scramble, offered,
                45, ServerStatus.AUTOCOMMIT, AuthPlugin.MYSQL_NATIVE_PASSWORD.pluginName());
        output.respondTo(-1);
        output.packet(128, hs::write);
        output.flush();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SslRequestSniffer.SslRequested) {
            tls = true;
        } else if (evt instanceof SslHandshakeCompletionEvent e && !e.isSuccess()) {
            log.info("TLS handshake with {} failed: {}", ctx.channel().remoteAddress(), e.cause().getMessage());
            ctx.close();
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            switch (phase) {
                case HANDSHAKE_SENT:
                    onHandshakeResponse(ctx, frame);
                    break;
                case LOGIN:
                    onLoginPacket(ctx, frame);
                    break;
                case COMMAND:
                    session.onFrame(frame);
                    frame = null;
                    break;
                default:
                    break;
            }
        } catch (MalformedPacketException | IndexOutOfBoundsException e) {
            protocolError(ctx, e.getMessage());
        } finally {
            if (frame != null) {
                frame.release();
            }
        }
    }

    private void onHandshakeResponse(ChannelHandlerContext ctx, ByteBuf frame) {
        output.respondTo(Frames.sequence(frame));
        response = HandshakeResponse41.decode(Frames.payload(frame));
        output.capabilities(response.capabilities().intersect(Capabilities.PROXY_SERVER));
        login = new ClientLogin(runtime.users(), runtime::rsaKeys, scramble, tls || isLocalSocket(ctx));
        ClientLogin.Outcome outcome = login.start(response.username(), response.authPluginName(),
                response.authResponse(), response.capabilities().pluginAuth());
        phase = Phase.LOGIN;
        afterLoginStep(ctx, outcome);
    }

    private void onLoginPacket(ChannelHandlerContext ctx, ByteBuf frame) {
        output.respondTo(Frames.sequence(frame));
        afterLoginStep(ctx, login.onPacket(Frames.payload(frame)));
    }

    private void afterLoginStep(ChannelHandlerContext ctx, ClientLogin.Outcome outcome) {
        if (outcome.reply() instanceof AuthSwitchRequest sw) {
            output.packet(64, sw::write);
        } else if (outcome.reply() instanceof AuthMoreData more) {
            output.packet(8 + more.data().length, more::write);
        }
        switch (outcome.step()) {
            case DONE:
                startSession(ctx);
                break;
            case FAILED:
                denyLogin(ctx);
                break;
            default:
                output.flush();
                break;
        }
    }

    private void startSession(ChannelHandlerContext ctx) {
        phase = Phase.COMMAND;
        Charset charset = Collations.byId(response.collationId());
        if (charset == null) {
            // Reading the client's bytes in a guessed character set would misplace its string keys.
            unknownCollation(ctx, response.collationId());
            return;
        }
        session = new ClientSession(runtime, runtime.loop(ctx.channel().eventLoop()), output, connectionId,
                login.userName(), response.capabilities().intersect(Capabilities.PROXY_SERVER), charset,
                new LoginChallenge(scramble, tls || isLocalSocket(ctx), remoteHost(ctx)));
        session.start(response.database());
        login = null;
        response = null;
    }

    private void unknownCollation(ChannelHandlerContext ctx, int id) {
        runtime.metrics().error(1115);
        output.error(1115, "42000", "Unknown character set: the client asked for collation id " + id + ", which the"
                + " proxy does not know; connect with a character set the server has (utf8mb4, latin1, ...)");
        output.flush();
        phase = Phase.CLOSED;
        ctx.close();
    }

    private void denyLogin(ChannelHandlerContext ctx) {
        String host = remoteHost(ctx);
        runtime.metrics().authFailed(login.userName());
        runtime.metrics().error(1045);
        log.warn("access denied for user '{}' from {} (using password: {})", login.userName(), host,
                login.passwordUsed() ? "YES" : "NO");
        output.error(1045, "28000", "Access denied for user '" + login.userName() + "'@'" + host
                + "' (using password: " + (login.passwordUsed() ? "YES" : "NO") + ")");
        output.flush();
        phase = Phase.CLOSED;
        ctx.close();
    }

    private void protocolError(ChannelHandlerContext ctx, String message) {
        log.info("closing client {}: malformed packet: {}", ctx.channel().remoteAddress(), message);
        if (phase != Phase.CLOSED) {
            runtime.metrics().error(1835);
            output.error(1835, "08S01", "Malformed communication packet: " + message);
            output.flush();
        }
        phase = Phase.CLOSED;
        ctx.close();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (session != null && ctx.channel().isWritable()) {
            session.clientWritable();
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        runtime.metrics().clientDisconnected();
        phase = Phase.CLOSED;
        if (session != null) {
            session.clientClosed();
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof io.netty.handler.codec.DecoderException && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof java.io.IOException) {
            log.debug("client {} I/O error: {}", ctx.channel().remoteAddress(), cause.getMessage());
        } else {
            log.warn("client {} failed", ctx.channel().remoteAddress(), cause);
        }
        ctx.close();
    }

    private static boolean isLocalSocket(ChannelHandlerContext ctx) {
        return !(ctx.channel().remoteAddress() instanceof InetSocketAddress);
    }

    private static String remoteHost(ChannelHandlerContext ctx) {
        if (ctx.channel().remoteAddress() instanceof InetSocketAddress address) {
            return address.getAddress().getHostAddress();
        }
        return "localhost";
    }
}
