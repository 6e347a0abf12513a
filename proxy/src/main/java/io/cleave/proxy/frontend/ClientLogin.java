package io.cleave.proxy.frontend;

import io.cleave.proxy.auth.AuthPlugin;
import io.cleave.proxy.auth.ProxyUser;
import io.cleave.proxy.auth.RsaKeys;
import io.cleave.proxy.auth.Scrambles;
import io.cleave.proxy.auth.UserDirectory;
import io.cleave.proxy.protocol.Wire;
import io.cleave.proxy.protocol.packet.client.HandshakeResponse41;
import io.cleave.proxy.protocol.packet.server.AuthMoreData;
import io.cleave.proxy.protocol.packet.server.AuthSwitchRequest;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * The server side of authentication for one connection (initial login and COM_CHANGE_USER):
 * checks a first-round token, switches plugins when the client chose one the account has no hash
 * for, and runs caching_sha2_password's full authentication (clear text over TLS, or RSA).
 * Produces the packets to send; the handler does the I/O.
 */
final class ClientLogin {

    enum Step { AWAIT_TOKEN, AWAIT_SWITCH_RESPONSE, AWAIT_FULL_AUTH, AWAIT_RSA, DONE, FAILED }

    /** What to do after a packet: send {@code reply} (may be null), then, when done, OK or deny. */
    record Outcome(Object reply, Step step) {
    }

    private final UserDirectory users;
    private final Supplier<KeyPair> rsaKeys;
    private final boolean secureTransport;
    private final ClientAuthDialect dialect;
    private byte[] scramble;
    private ProxyUser user;
    private String userName;
    private AuthPlugin plugin;
    private Step step = Step.AWAIT_TOKEN;
    private boolean passwordUsed;

    ClientLogin(UserDirectory users, Supplier<KeyPair> rsaKeys, byte[] scramble, boolean secureTransport,
                ClientAuthDialect dialect) {
        this.users = users;
        this.dialect = dialect;
        this.rsaKeys = rsaKeys;
        this.scramble = scramble;
        this.secureTransport = secureTransport;
    }

    String userName() {
        return userName;
    }

    ProxyUser user() {
        return user;
    }

    boolean passwordUsed() {
        return passwordUsed;
    }

    Step step() {
        return step;
    }

    /** The first round: a HandshakeResponse41 or COM_CHANGE_USER's user, plugin and token. */
    Outcome start(String name, String clientPluginName, byte[] token, boolean pluginAuth) {
        userName = name;
        user = users.find(name);
        passwordUsed = token.length > 0 && !(token.length == 1 && token[0] == 0);
        if (user == null) {
            return fail();
        }
        AuthPlugin chosen = pluginAuth ? AuthPlugin.byName(clientPluginName) : AuthPlugin.MYSQL_NATIVE_PASSWORD;
        if (chosen == null && clientPluginName == null) {
            chosen = AuthPlugin.MYSQL_NATIVE_PASSWORD;
        }
        if (chosen == null || !user.supports(chosen)) {
            if (!pluginAuth) {
                return fail();
            }
            plugin = user.preferredPlugin();
            // The same challenge again, as servers do: a client answers a later COM_CHANGE_USER
            // against the connection's scramble, whichever packet it last came in.
            step = Step.AWAIT_SWITCH_RESPONSE;
            return new Outcome(new AuthSwitchRequest(plugin.pluginName(), scramble), step);
        }
        plugin = chosen;
        return checkToken(token);
    }

    Outcome onPacket(ByteBuf payload) {
        switch (step) {
            case AWAIT_SWITCH_RESPONSE: {
                byte[] token = Wire.readRestBytes(payload);
                passwordUsed = token.length > 0 && !(token.length == 1 && token[0] == 0);
                return checkToken(token);
            }
            case AWAIT_FULL_AUTH: {
                byte[] data = Wire.readRestBytes(payload);
                if (secureTransport) {
                    return finish(users.verifyPassword(user, stripNul(data)));
                }
                if (data.length == 1 && data[0] == 2) {
                    step = Step.AWAIT_RSA;
                    String pem = RsaKeys.toPem(rsaKeys.get().getPublic());
                    return new Outcome(new AuthMoreData(pem.getBytes(StandardCharsets.US_ASCII)), step);
                }
                return decryptAndCheck(data);
            }
            case AWAIT_RSA:
                return decryptAndCheck(Wire.readRestBytes(payload));
            default:
                throw new IllegalStateException("no authentication packet expected in step " + step);
        }
    }

    private Outcome checkToken(byte[] token) {
        if (user.emptyPassword() || plugin == AuthPlugin.MYSQL_NATIVE_PASSWORD) {
            return finish(users.verifyToken(user, plugin, token, scramble));
        }
        if (!passwordUsed) {
            return fail();
        }
        if (users.hasCachedSha2(user)) {
            boolean ok = users.verifyToken(user, plugin, token, scramble);
            if (!ok) {
                return fail();
            }
            step = Step.DONE;
            return new Outcome(new AuthMoreData(new byte[] {AuthMoreData.FAST_AUTH_SUCCESS}), step);
        }
        step = Step.AWAIT_FULL_AUTH;
        return new Outcome(new AuthMoreData(new byte[] {AuthMoreData.PERFORM_FULL_AUTHENTICATION}), step);
    }

    private Outcome decryptAndCheck(byte[] encrypted) {
        try {
            byte[] plain = RsaKeys.decrypt(rsaKeys.get().getPrivate(), encrypted, dialect.oaep());
            return finish(users.verifyPassword(user, stripNul(Scrambles.xorWithScramble(plain, scramble))));
        } catch (GeneralSecurityException e) {
            return fail();
        }
    }

    private Outcome finish(boolean ok) {
        return ok ? new Outcome(null, step = Step.DONE) : fail();
    }

    private Outcome fail() {
        step = Step.FAILED;
        return new Outcome(null, step);
    }

    private static byte[] stripNul(byte[] data) {
        int end = data.length;
        while (end > 0 && data[end - 1] == 0) {
            end--;
        }
        return Arrays.copyOf(data, end);
    }

    static HandshakeResponse41 decodeResponse(ByteBuf payload) {
        return HandshakeResponse41.decode(payload);
    }
}
