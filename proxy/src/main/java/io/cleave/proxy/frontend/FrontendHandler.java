package io.cleave.proxy.frontend;

import io.cleave.proxy.accounts.ClientAddress;
import io.cleave.proxy.auth.AuthPlugin;
import io.cleave.proxy.auth.FailedLogins;
import io.cleave.proxy.auth.Scrambles;
import io.cleave.proxy.backend.ShardLogin;
import io.cleave.proxy.metrics.LoginAbort;
import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.MalformedPacketException;
import io.cleave.proxy.protocol.PacketFrameDecoder;
import io.cleave.proxy.protocol.ServerStatus;
import io.cleave.proxy.protocol.packet.client.HandshakeResponse41;
import io.cleave.proxy.protocol.packet.server.AuthMoreData;
import io.cleave.proxy.protocol.packet.server.AuthSwitchRequest;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.protocol.packet.server.HandshakeV10;
import io.cleave.proxy.proxyprotocol.ClientEndpoint;
import io.cleave.proxy.proxyprotocol.ProxyHeaderRefused;
import io.cleave.proxy.server.LoginLimits;
import io.cleave.proxy.server.ProxyRuntime;
import io.cleave.proxy.session.Charset;
import io.cleave.proxy.session.Collations;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandshakeCompletionEvent;
import io.netty.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * One client connection: sends the handshake, runs the login against the shards' accounts, then
 * hands every frame to the {@link ClientSession}, whose statements run on backend connections
 * logged in as the client's account. Before login the client is bounded as a server bounds it: a deadline
 * (connect_timeout), a cap on packet size, and a delay for accounts whose logins from the client's
 * host failed too often.
 * A malformed packet gets an error and a closed connection.
 */
public final class FrontendHandler extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(FrontendHandler.class);

    private enum Phase {
        HANDSHAKE_SENT,
        /** The handshake response is in, waiting out its host's failed-login delay. */
        THROTTLED,
        LOGIN,
        COMMAND,
        CLOSED
    }

    private final ProxyRuntime runtime;
    private Phase phase = Phase.HANDSHAKE_SENT;
    private ClientOutput output;
    private ClientSession session;
    private ClientLogin login;
    private HandshakeResponse41 response;
    private byte[] scramble;
    private long connectionId;
    private boolean tls;
    private ClientAuthDialect dialect = ClientAuthDialect.STANDARD;
    private ScheduledFuture<?> loginDeadline;

    public FrontendHandler(ProxyRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        runtime.metrics().clientConnected();
        output = new ClientOutput(ctx.channel(), runtime.cuts());
        connectionId = runtime.nextConnectionId();
        scramble = Scrambles.newScramble();
        Capabilities offered = runtime.sslContext() == null
                ? Capabilities.PROXY_SERVER.without(Capabilities.SSL) : Capabilities.PROXY_SERVER;
        HandshakeV10 hs = new HandshakeV10(runtime.serverVersion(), connectionId, scramble, offered,
                45, ServerStatus.AUTOCOMMIT, AuthPlugin.MYSQL_NATIVE_PASSWORD.pluginName());
        output.respondTo(-1);
        output.packet(128, hs::write);
        output.flush();
        armLoginDeadline(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof SslRequestSniffer.SslRequested) {
            tls = true;
        } else if (evt instanceof ProxyHeaderRefused refused) {
            // The client's handshake response (sequence 1), if it came, was dropped with the header: this answers it.
            runtime.metrics().loginAborted(LoginAbort.PROXY_HEADER);
            output.respondTo(1);
            closeWith(ctx, 1130, "HY000", refused.reason());
        } else if (evt instanceof SslHandshakeCompletionEvent e && !e.isSuccess()) {
            log.info("TLS handshake with {} failed: {}", ClientEndpoint.of(ctx.channel()), e.cause().getMessage());
            ctx.close();
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof PacketFrameDecoder.Oversized oversized) {
            tooLarge(ctx, oversized);
            return;
        }
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
                case THROTTLED:
                    // Nothing is due from the client while its login waits.
                    throw new MalformedPacketException("a packet arrived while the login was waiting for its turn");
                default:
                    break;
            }
        } catch (MalformedPacketException | IndexOutOfBoundsException e) {
            protocolError(ctx, e);
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
        dialect = ClientAuthDialect.of(runtime.serverVersion(), response.attributes());
        String host = remoteHost(ctx);
        long wait = runtime.failedLogins().admit(response.username(), host, System.nanoTime());
        if (wait == FailedLogins.REFUSED) {
            runtime.metrics().loginAborted(LoginAbort.THROTTLED);
            String why = runtime.failedLogins().refusal(response.username(), host);
            log.warn("refused a login: {}", LogSafe.text(why));
            closeWith(ctx, 3955, "HY000", why);
            return;
        }
        if (wait > 0) {
            // The password is checked after the wait, so a guess cannot learn its outcome sooner;
            // the wait is the proxy's, so it does not count against the client's login time.
            phase = Phase.THROTTLED;
            cancelLoginDeadline();
            ctx.channel().config().setAutoRead(false);
            ctx.executor().schedule(() -> {
                if (phase == Phase.THROTTLED && ctx.channel().isActive()) {
                    ctx.channel().config().setAutoRead(true);
                    armLoginDeadline(ctx);
                    startLogin(ctx);
                }
            }, wait, TimeUnit.NANOSECONDS);
            return;
        }
        startLogin(ctx);
    }

    private void startLogin(ChannelHandlerContext ctx) {
        login = new ClientLogin(runtime.accounts(), runtime::rsaKeys, scramble, tls || isLocalSocket(ctx), dialect,
                ClientAddress.of(ClientEndpoint.of(ctx.channel())));
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
            output.packet(8 + more.data().length, out -> dialect.write(more, out));
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
        cancelLoginDeadline();
        runtime.failedLogins().succeeded(login.userName(), remoteHost(ctx));
        ErrPacket refused = login.refusal(System.currentTimeMillis() / 1000);
        if (refused != null) {
            log.info("refused a login as {}: {}", login.account().name(), refused.message());
            closeWith(ctx, refused.errorCode(), refused.sqlState(), refused.message());
            return;
        }
        int profile = response.capabilities().intersect(Capabilities.PROXY_SERVER).responseProfile();
        ClientAddress client = ClientAddress.of(ClientEndpoint.of(ctx.channel()));
        ShardLogin shardLogin = runtime.accounts().loginFor(login.userName(), login.account(), client, profile,
                login.credential(), runtime.proxyProtocol());
        if (shardLogin == null) {
            runtime.accounts().left(login.account().name());
            closeWith(ctx, 1045, "28000", login.denial() + ": the shards would take the proxy's connections for "
                    + login.account().name() + " as another account, and their server has no PROXY protocol to"
                    + " pass the client's address on");
            return;
        }
        phase = Phase.COMMAND;
        // Logged in: packets up to max_allowed_packet are fine now (the session checks joined ones).
        PacketFrameDecoder frames = ctx.pipeline().get(PacketFrameDecoder.class);
        if (frames != null) {
            frames.maxPayload((int) Math.min(Integer.MAX_VALUE, runtime.config().maxAllowedPacket()));
        }
        Charset charset = Collations.byId(response.collationId());
        if (charset == null) {
            // Reading the client's bytes in a guessed character set would misplace its string keys.
            runtime.accounts().left(login.account().name());
            unknownCollation(ctx, response.collationId());
            return;
        }
        session = new ClientSession(runtime, runtime.loop(ctx.channel().eventLoop()), output, connectionId,
                new SessionAccount(login.userName(), login.account(), shardLogin),
                response.capabilities().intersect(Capabilities.PROXY_SERVER), charset,
                new LoginChallenge(scramble, tls || isLocalSocket(ctx), client, dialect));
        session.start(response.database());
        login = null;
        response = null;
    }

    private void unknownCollation(ChannelHandlerContext ctx, int id) {
        runtime.metrics().error(1115);
        output.error(1115, "42000", "Unknown character set: the client asked for collation id " + id + ", which the"
                + " proxy does not know; connect with a character set the server has (utf8mb4, latin1, ...)");
        phase = Phase.CLOSED;
        output.close();
    }

    private void denyLogin(ChannelHandlerContext ctx) {
        String host = remoteHost(ctx);
        runtime.metrics().authFailed(login.userName());
        runtime.failedLogins().failed(login.userName(), host);
        log.warn("access denied for user '{}' from {} (using password: {})", LogSafe.text(login.userName()), host,
                login.passwordUsed() ? "YES" : "NO");
        closeWith(ctx, 1045, "28000", login.denial());
    }

    private void protocolError(ChannelHandlerContext ctx, RuntimeException e) {
        String message = MalformedPacketException.reason(e);
        log.info("closing client {}: malformed packet: {}", ClientEndpoint.of(ctx.channel()), LogSafe.text(message));
        if (phase != Phase.COMMAND && phase != Phase.CLOSED) {
            runtime.metrics().loginAborted(LoginAbort.MALFORMED);
        }
        closeWith(ctx, 1835, "08S01", "Malformed communication packet: " + message);
    }

    private void tooLarge(ChannelHandlerContext ctx, PacketFrameDecoder.Oversized oversized) {
        boolean loggedIn = phase == Phase.COMMAND;
        log.info("closing client {}: a packet of {} bytes {}", ClientEndpoint.of(ctx.channel()),
                oversized.payloadLength(), loggedIn ? "exceeds max_allowed_packet" : "before login");
        if (!loggedIn) {
            runtime.metrics().loginAborted(LoginAbort.PACKET_TOO_LARGE);
        }
        output.respondTo(oversized.sequence());
        closeWith(ctx, 1153, "08S01", loggedIn
                ? "Got a packet bigger than 'max_allowed_packet' bytes"
                : "Got a packet bigger than the " + oversized.limit() + " bytes allowed before login");
    }

    /** Sends an error (unless the connection is already being closed) and closes. */
    private void closeWith(ChannelHandlerContext ctx, int code, String sqlState, String message) {
        if (phase == Phase.CLOSED) {
            ctx.close();
            return;
        }
        runtime.metrics().error(code);
        output.error(code, sqlState, message);
        phase = Phase.CLOSED;
        output.close();
    }

    private void armLoginDeadline(ChannelHandlerContext ctx) {
        LoginLimits limits = runtime.config().login();
        loginDeadline = ctx.executor().schedule(() -> {
            if (phase == Phase.HANDSHAKE_SENT || phase == Phase.LOGIN) {
                runtime.metrics().loginAborted(LoginAbort.TIMEOUT);
                log.info("closing client {}: not logged in within {} s", ClientEndpoint.of(ctx.channel()),
                        limits.timeout().toSeconds());
                closeWith(ctx, 1159, "08S01", "Got timeout reading communication packets: not logged in within "
                        + limits.timeout().toMillis() + " ms");
            }
        }, limits.timeout().toNanos(), TimeUnit.NANOSECONDS);
    }

    private void cancelLoginDeadline() {
        if (loginDeadline != null) {
            loginDeadline.cancel(false);
            loginDeadline = null;
        }
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
        cancelLoginDeadline();
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
            log.debug("client {} I/O error: {}", ClientEndpoint.of(ctx.channel()), cause.getMessage());
        } else {
            log.warn("client {} failed", ClientEndpoint.of(ctx.channel()), cause);
        }
        phase = Phase.CLOSED;
        ctx.close();
    }

    private static boolean isLocalSocket(ChannelHandlerContext ctx) {
        return !(ClientEndpoint.of(ctx.channel()) instanceof InetSocketAddress);
    }

    private static String remoteHost(ChannelHandlerContext ctx) {
        if (ClientEndpoint.of(ctx.channel()) instanceof InetSocketAddress address) {
            return address.getAddress().getHostAddress();
        }
        return "localhost";
    }
}
