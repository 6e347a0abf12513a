package io.cleave.proxy.backend;

import io.cleave.proxy.auth.AuthPlugin;
import io.cleave.proxy.auth.RsaKeys;
import io.cleave.proxy.auth.Scrambles;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.packet.client.ComChangeUser;
import io.cleave.proxy.protocol.packet.server.AuthMoreData;
import io.cleave.proxy.protocol.packet.server.AuthSwitchRequest;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.netty.buffer.ByteBuf;
import io.netty.channel.unix.DomainSocketChannel;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Logs an idle backend connection in again as the account it is logged in as, with no schema
 * (COM_CHANGE_USER). That is the only way back to "no database selected" once a connection has
 * used one (USE cannot leave a schema, COM_RESET_CONNECTION keeps it), and it leaves the
 * connection as a new one: default variables, no user variables, no prepared statements.
 * Follows the server's rounds (auth switch, caching_sha2_password's fast path or full
 * authentication) like the first login.
 */
public final class BackendLogin implements ResponseSink {

    private static final byte REQUEST_PUBLIC_KEY = 2;

    private final BackendConnection conn;
    private final ShardCredential credential;
    private final Consumer<ErrPacket> then;
    private byte[] scramble;
    private ErrPacket error;
    private boolean awaitingKey;

    private BackendLogin(BackendConnection conn, Consumer<ErrPacket> then) {
        this.conn = conn;
        this.then = then;
        this.scramble = conn.loginScramble();
        this.credential = conn.login().credentialAt(conn.endpoint());
    }

    /** Calls {@code then} with null once {@code conn} is logged in afresh, or with the error that stopped it. */
    public static void again(BackendConnection conn, Consumer<ErrPacket> then) {
        BackendLogin login = new BackendLogin(conn, then);
        AuthPlugin plugin = conn.loginPlugin();
        String user = conn.login().userAt(conn.endpoint());
        byte[] token = login.credential.token(plugin, login.scramble);
        if (token == null) {
            then.accept(new ErrPacket(1045, "28000", "logging in to shard " + conn.shard() + " again as "
                    + conn.login() + " needs its password, which the proxy does not hold"));
            return;
        }
        ComChangeUser packet = new ComChangeUser(user, token, null, conn.server().defaultCollation(), plugin.pluginName(),
                Map.of("_client_name", "cleave", "program_name", "cleave-proxy"));
        ByteBuf frame = Frames.begin(conn.channel().alloc(), 128);
        packet.write(frame, conn.capabilities());
        conn.send(Frames.finish(frame, 0), ResponseKind.CHANGE_USER, login);
        conn.flush();
    }

    @Override
    public void frame(BackendConnection c, ByteBuf frame, FrameKind kind) {
        try {
            if (kind == FrameKind.ERR) {
                error = ErrPacket.decode(Frames.payload(frame));
            } else if (kind == FrameKind.AUTH_ROUND) {
                answer(Frames.payload(frame), Frames.sequence(frame) + 1);
            }
        } catch (GeneralSecurityException | RuntimeException e) {
            error = new ErrPacket(1045, "28000", "logging in to shard " + c.shard() + " again failed: " + e.getMessage());
            c.close();
        } finally {
            frame.release();
        }
    }

    private void answer(ByteBuf payload, int sequence) throws GeneralSecurityException {
        int first = payload.getUnsignedByte(payload.readerIndex());
        if (first == AuthSwitchRequest.HEADER) {
            AuthSwitchRequest sw = AuthSwitchRequest.decode(payload);
            AuthPlugin plugin = AuthPlugin.byName(sw.pluginName());
            if (plugin == null) {
                throw new IllegalStateException("the shard asks for auth plugin " + sw.pluginName());
            }
            scramble = sw.pluginData();
            conn.loggedInWith(plugin, scramble);
            byte[] token = credential.token(plugin, scramble);
            if (token == null) {
                throw new IllegalStateException("the shard asks for " + plugin.pluginName() + ", for which the proxy"
                        + " holds no password of " + conn.login());
            }
            reply(token, sequence);
            return;
        }
        byte[] data = AuthMoreData.decode(payload).data();
        byte[] password = credential.cleartext();
        if (password == null && (awaitingKey || data.length == 1 && data[0] == AuthMoreData.PERFORM_FULL_AUTHENTICATION)) {
            throw new IllegalStateException("the shard asks for the password of " + conn.login() + ", which the proxy"
                    + " does not hold");
        }
        if (awaitingKey) {
            byte[] plain = Scrambles.xorWithScramble(Arrays.copyOf(password, password.length + 1), scramble);
            reply(RsaKeys.encrypt(RsaKeys.fromPem(new String(data, StandardCharsets.US_ASCII)), plain), sequence);
            awaitingKey = false;
        } else if (data.length == 1 && data[0] == AuthMoreData.PERFORM_FULL_AUTHENTICATION) {
            if (conn.channel() instanceof DomainSocketChannel) {
                // A Unix socket is a secure transport: the password may travel in clear.
                reply(Arrays.copyOf(password, password.length + 1), sequence);
            } else {
                awaitingKey = true;
                reply(new byte[] {REQUEST_PUBLIC_KEY}, sequence);
            }
        }
        // FAST_AUTH_SUCCESS: the OK follows.
    }

    private void reply(byte[] data, int sequence) {
        ByteBuf frame = Frames.begin(conn.channel().alloc(), data.length);
        frame.writeBytes(data);
        conn.sendWithoutResponse(Frames.finish(frame, sequence & 0xff));
        conn.flush();
    }

    @Override
    public void complete(BackendConnection c, ResponseTracker tracker) {
        if (error == null) {
            c.statements().clear();
            c.sessionState().loggedInAgain();
        } else {
            c.close();
        }
        then.accept(error);
    }

    @Override
    public void failed(BackendConnection c, Throwable cause) {
        then.accept(new ErrPacket(1158, "08S01", "Lost connection to shard " + c.shard() + " while resetting the"
                + " session: " + cause.getMessage()));
    }
}
