package io.cleave.proxy.backend;

import io.cleave.proxy.auth.AuthPlugin;
import io.cleave.proxy.auth.RsaKeys;
import io.cleave.proxy.auth.Scrambles;
import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.packet.client.HandshakeResponse41;
import io.cleave.proxy.protocol.packet.server.AuthMoreData;
import io.cleave.proxy.protocol.packet.server.AuthSwitchRequest;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.protocol.packet.server.HandshakeV10;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.Promise;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Logs the proxy in to a shard as a {@link ShardLogin}'s account (the shard account, or a client's
 * with the credential its login gave): sends the PROXY protocol header first when the login goes
 * by the client's address, answers the handshake, follows auth switches and
 * caching_sha2_password's extra rounds (the password in clear over the Unix socket, RSA-encrypted
 * over TCP), then hands the channel to a {@link BackendHandler}.
 */
final class BackendAuthHandler extends ChannelInboundHandlerAdapter {

    /** What the proxy always asks of a shard; response-shaping flags come from the client's profile. */
    static final long BASE_CLIENT_FLAGS = Capabilities.LONG_PASSWORD | Capabilities.LONG_FLAG
            | Capabilities.PROTOCOL_41 | Capabilities.TRANSACTIONS | Capabilities.SECURE_CONNECTION
            | Capabilities.MULTI_STATEMENTS | Capabilities.MULTI_RESULTS | Capabilities.PS_MULTI_RESULTS
            | Capabilities.PLUGIN_AUTH | Capabilities.PLUGIN_AUTH_LENENC_CLIENT_DATA | Capabilities.CONNECT_ATTRS;
    private static final int UTF8MB4_GENERAL_CI = 45;
    private static final int UTF8MB4_0900_AI_CI = 255;

    private enum State { AWAIT_HANDSHAKE, AWAIT_RESULT, AWAIT_PUBLIC_KEY }

    private final ShardEndpoint endpoint;
    private final ShardLogin login;
    private final int generation;
    private final String user;
    private final ShardCredential credential;
    private final int profile;
    private final int statementCacheSize;
    private final Promise<BackendConnection> promise;
    private State state = State.AWAIT_HANDSHAKE;
    private HandshakeV10 handshake;
    private Capabilities agreed;
    private byte[] scramble;
    private AuthPlugin plugin;
    private int sequence;

    BackendAuthHandler(ShardEndpoint endpoint, ShardLogin login, int generation, int statementCacheSize,
                       Promise<BackendConnection> promise) {
        this.endpoint = endpoint;
        this.login = login;
        this.generation = generation;
        this.user = login.userAt(endpoint);
        this.credential = login.credentialAt(endpoint);
        this.profile = login.profile();
        this.statementCacheSize = statementCacheSize;
        this.promise = promise;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (login.proxiedTo(endpoint)) {
            // Before anything of the protocol: the shard takes the connection as coming from the client.
            ctx.writeAndFlush(ctx.alloc().buffer().writeBytes(ProxyHeader.v1(login.clientIp(), endpoint)));
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            sequence = Frames.sequence(frame);
            ByteBuf payload = Frames.payload(frame);
            int first = Frames.firstByte(frame);
            if (first == ErrPacket.HEADER) {
                ErrPacket err = ErrPacket.decode(payload);
                fail(ctx, new BackendException(err, "login to " + endpoint.describe() + " refused"));
                return;
            }
            switch (state) {
                case AWAIT_HANDSHAKE:
                    onHandshake(ctx, HandshakeV10.decode(payload));
                    break;
                case AWAIT_RESULT:
                    onResult(ctx, payload, first);
                    break;
                case AWAIT_PUBLIC_KEY:
                    byte[] pem = AuthMoreData.decode(payload).data();
                    byte[] plain = Scrambles.xorWithScramble(passwordWithNul(), scramble);
                    send(ctx, RsaKeys.encrypt(RsaKeys.fromPem(new String(pem, StandardCharsets.US_ASCII)), plain));
                    state = State.AWAIT_RESULT;
                    break;
                default:
                    throw new IllegalStateException(state.name());
            }
        } catch (Exception e) {
            fail(ctx, e);
        } finally {
            frame.release();
        }
    }

    private void onHandshake(ChannelHandlerContext ctx, HandshakeV10 hs) {
        handshake = hs;
        scramble = hs.authPluginData();
        long wanted = BASE_CLIENT_FLAGS | profile;
        agreed = new Capabilities(wanted & (hs.capabilities().flags() | Capabilities.LONG_PASSWORD));
        if ((agreed.flags() & profile) != profile) {
            throw new IllegalStateException(endpoint.describe() + " lacks capabilities the client needs: 0x"
                    + Long.toHexString(profile & ~agreed.flags()));
        }
        plugin = AuthPlugin.byName(hs.authPluginName());
        if (plugin == null) {
            plugin = AuthPlugin.MYSQL_NATIVE_PASSWORD;
        }
        Map<String, String> attrs = new LinkedHashMap<>();
        attrs.put("_client_name", "cleave");
        attrs.put("program_name", "cleave-proxy");
        HandshakeResponse41 response = new HandshakeResponse41(agreed, 1 << 30, collationFor(hs), user,
                token(plugin, scramble), null, plugin.pluginName(), attrs);
        ByteBuf buf = Frames.begin(ctx.alloc(), 128);
        response.write(buf);
        ctx.writeAndFlush(Frames.finish(buf, ++sequence));
        state = State.AWAIT_RESULT;
    }

    private void onResult(ChannelHandlerContext ctx, ByteBuf payload, int first) throws Exception {
        if (first == 0x00) {
            BackendConnection connection = new BackendConnection(ctx.channel(), endpoint, agreed,
                    new ServerInfo(handshake.serverVersion(), handshake.capabilities(), collationFor(handshake)),
                    handshake.connectionId(), statementCacheSize, login, generation);
            connection.loggedInWith(plugin, scramble);
            connection.startedWith(handshake.statusFlags());
            ctx.pipeline().replace(this, "backend", new BackendHandler(connection));
            promise.trySuccess(connection);
            return;
        }
        if (first == AuthSwitchRequest.HEADER) {
            AuthSwitchRequest sw = AuthSwitchRequest.decode(payload);
            plugin = AuthPlugin.byName(sw.pluginName());
            if (plugin == null) {
                throw new IllegalStateException(endpoint.describe() + " asks for auth plugin " + sw.pluginName()
                        + ", which the proxy does not speak; create the account with mysql_native_password"
                        + " or caching_sha2_password");
            }
            scramble = sw.pluginData();
            send(ctx, token(plugin, scramble));
            return;
        }
        if (first == AuthMoreData.HEADER) {
            byte[] data = AuthMoreData.decode(payload).data();
            if (data.length == 1 && data[0] == AuthMoreData.FAST_AUTH_SUCCESS) {
                return;
            }
            if (data.length == 1 && data[0] == AuthMoreData.PERFORM_FULL_AUTHENTICATION) {
                if (ctx.channel() instanceof io.netty.channel.unix.DomainSocketChannel) {
                    // A Unix socket is a secure transport: the password may travel in clear.
                    send(ctx, passwordWithNul());
                } else {
                    send(ctx, new byte[] {2});
                    state = State.AWAIT_PUBLIC_KEY;
                }
                return;
            }
        }
        throw new IllegalStateException(endpoint.describe() + " sent an unexpected packet during login (0x"
                + Integer.toHexString(first) + ")");
    }

    /** The first-round answer to {@code challenge}; fails when the credential cannot give one for this plugin. */
    private byte[] token(AuthPlugin with, byte[] challenge) {
        byte[] token = credential.token(with, challenge);
        if (token == null) {
            throw new IllegalStateException(endpoint.describe() + " asks " + login + " to log in with "
                    + with.pluginName() + ", for which the proxy holds no password: log in to the proxy once with"
                    + " full authentication (over TLS)");
        }
        return token;
    }

    private byte[] passwordWithNul() {
        byte[] password = credential.cleartext();
        if (password == null) {
            throw new IllegalStateException(endpoint.describe() + " asks " + login + " for its password in full"
                    + " authentication, which the proxy does not hold: log in to the proxy once over TLS");
        }
        return Arrays.copyOf(password, password.length + 1);
    }

    private void send(ChannelHandlerContext ctx, byte[] data) {
        ByteBuf buf = Frames.begin(ctx.alloc(), data.length);
        buf.writeBytes(data);
        ctx.writeAndFlush(Frames.finish(buf, ++sequence));
    }

    private static int collationFor(HandshakeV10 hs) {
        return hs.collationId() == UTF8MB4_0900_AI_CI ? UTF8MB4_0900_AI_CI : UTF8MB4_GENERAL_CI;
    }

    private void fail(ChannelHandlerContext ctx, Throwable cause) {
        promise.tryFailure(cause);
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        promise.tryFailure(new IOException(endpoint.describe() + " closed the connection during login"));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(ctx, cause);
    }
}
