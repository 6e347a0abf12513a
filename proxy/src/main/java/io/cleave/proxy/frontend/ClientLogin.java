package io.cleave.proxy.frontend;

import io.cleave.proxy.accounts.Account;
import io.cleave.proxy.accounts.Accounts;
import io.cleave.proxy.accounts.ClientAddress;
import io.cleave.proxy.auth.AuthPlugin;
import io.cleave.proxy.auth.RsaKeys;
import io.cleave.proxy.auth.Scrambles;
import io.cleave.proxy.auth.Sha256Crypt;
import io.cleave.proxy.backend.ShardCredential;
import io.cleave.proxy.protocol.Wire;
import io.cleave.proxy.protocol.packet.client.HandshakeResponse41;
import io.cleave.proxy.protocol.packet.server.AuthMoreData;
import io.cleave.proxy.protocol.packet.server.AuthSwitchRequest;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.util.Arrays;
import java.util.function.Supplier;

/**
 * The server side of authentication for one connection (initial login and COM_CHANGE_USER),
 * against the shards' accounts: finds the account the client's user and address select (as the
 * server would), checks the client's answer with the account's plugin, switching plugins when the
 * client started with another, and learns what the proxy needs to log in to the shards as that
 * account ({@link #credential()}). mysql_native_password: the answer to the scramble gives
 * SHA1(password); caching_sha2_password: the password itself, from full authentication (clear text
 * over TLS or a Unix socket, or RSA), after which the fast path works too. Produces the packets to
 * send; the handler does the I/O. After a good password, {@link #refusal} says whether the account
 * may log in now (locked, expired, too many connections).
 */
final class ClientLogin {

    enum Step { AWAIT_TOKEN, AWAIT_SWITCH_RESPONSE, AWAIT_FULL_AUTH, AWAIT_RSA, DONE, FAILED }

    /** What to do after a packet: send {@code reply} (may be null), then, when done, OK or deny. */
    record Outcome(Object reply, Step step) {
    }

    private final Accounts accounts;
    private final Supplier<KeyPair> rsaKeys;
    private final boolean secureTransport;
    private final ClientAuthDialect dialect;
    private final ClientAddress client;
    private final byte[] scramble;
    private Account account;
    private String userName;
    private AuthPlugin plugin;
    private Step step = Step.AWAIT_TOKEN;
    private boolean passwordUsed;
    private ShardCredential credential;
    /** Why the login failed, when not for a wrong password (the usual 1045 then). */
    private String unsupported;

    ClientLogin(Accounts accounts, Supplier<KeyPair> rsaKeys, byte[] scramble, boolean secureTransport,
                ClientAuthDialect dialect, ClientAddress client) {
        this.accounts = accounts;
        this.dialect = dialect;
        this.rsaKeys = rsaKeys;
        this.scramble = scramble;
        this.secureTransport = secureTransport;
        this.client = client;
    }

    String userName() {
        return userName;
    }

    /** The account logged in as (once {@link Step#DONE}). */
    Account account() {
        return account;
    }

    /** What logs in to the shards as the account (once {@link Step#DONE}). */
    ShardCredential credential() {
        return credential;
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
        passwordUsed = token.length > 0 && !(token.length == 1 && token[0] == 0);
        account = accounts.isShardAccount(name) ? null : accounts.directory().resolve(name, client);
        if (account == null) {
            return fail();
        }
        AuthPlugin wanted = switch (account.method()) {
            case NATIVE -> AuthPlugin.MYSQL_NATIVE_PASSWORD;
            case CACHING_SHA2 -> AuthPlugin.CACHING_SHA2_PASSWORD;
            case UNSUPPORTED -> null;
        };
        if (wanted == null) {
            unsupported = "its account " + account.name() + " authenticates with " + account.plugin() + ", which the"
                    + " proxy cannot log in to the shards with: give the account mysql_native_password";
            return fail();
        }
        AuthPlugin chosen = pluginAuth ? AuthPlugin.byName(clientPluginName) : AuthPlugin.MYSQL_NATIVE_PASSWORD;
        if (chosen == null && clientPluginName == null) {
            chosen = AuthPlugin.MYSQL_NATIVE_PASSWORD;
        }
        plugin = wanted;
        if (chosen != wanted) {
            if (!pluginAuth) {
                return fail();
            }
            // The same challenge again, as servers do: a client answers a later COM_CHANGE_USER
            // against the connection's scramble, whichever packet it last came in.
            step = Step.AWAIT_SWITCH_RESPONSE;
            return new Outcome(new AuthSwitchRequest(plugin.pluginName(), scramble), step);
        }
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
                    return checkPassword(stripNul(data));
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

    /**
     * Why the account, its password checked, may not log in now (or null): locked (4151), its
     * password expired (1862; the proxy has no sandbox mode), or its connection limit reached
     * (1226). A login admitted here counts against that limit until {@link Accounts#left}.
     */
    ErrPacket refusal(long nowSeconds) {
        if (account.locked()) {
            return new ErrPacket(4151, "HY000", "Access denied, this account is locked");
        }
        if (account.passwordExpired(nowSeconds, accounts.directory().limits().passwordLifetimeDays())) {
            return new ErrPacket(1862, "HY000", "Your password has expired. To log in you must change it using a client"
                    + " that supports expired passwords.");
        }
        if (!accounts.admit(account)) {
            return new ErrPacket(1226, "42000", "User '" + account.name().user() + "' has exceeded the"
                    + " 'max_user_connections' resource (current value: "
                    + accounts.directory().connectionLimit(account) + ")");
        }
        return null;
    }

    /** The message of a denied login: the server's wording, and why when it was not the password. */
    String denial() {
        String base = "Access denied for user '" + userName + "'@'" + client.display() + "' (using password: "
                + (passwordUsed ? "YES" : "NO") + ")";
        return unsupported == null ? base : base + ": " + unsupported;
    }

    private Outcome checkToken(byte[] token) {
        if (plugin == AuthPlugin.MYSQL_NATIVE_PASSWORD) {
            return checkNative(token);
        }
        boolean empty = token.length == 0 || token.length == 1 && token[0] == 0;
        if (account.authString().isEmpty()) {
            return finish(empty, ShardCredential.NONE);
        }
        if (empty) {
            return fail();
        }
        byte[] known = accounts.sha2Password(account.name());
        if (known != null) {
            if (!Scrambles.verifySha2(token, scramble, Scrambles.doubleSha256(known))) {
                return fail();
            }
            credential = new ShardCredential.Password(known);
            step = Step.DONE;
            return new Outcome(new AuthMoreData(new byte[] {AuthMoreData.FAST_AUTH_SUCCESS}), step);
        }
        step = Step.AWAIT_FULL_AUTH;
        return new Outcome(new AuthMoreData(new byte[] {AuthMoreData.PERFORM_FULL_AUTHENTICATION}), step);
    }

    private Outcome checkNative(byte[] token) {
        byte[] stored = account.nativeHash();
        if (stored == null) {
            return fail();
        }
        boolean empty = token.length == 0 || token.length == 1 && token[0] == 0;
        if (stored.length == 0) {
            return finish(empty, ShardCredential.NONE);
        }
        byte[] stage1 = Scrambles.nativeStage1(token, scramble, stored);
        return finish(stage1 != null, stage1 == null ? null : new ShardCredential.NativeStage1(stage1));
    }

    /** Full authentication of a caching_sha2_password account: the password itself. */
    private Outcome checkPassword(byte[] password) {
        boolean ok = Sha256Crypt.verifyMysqlHash(password, account.authString());
        if (ok) {
            accounts.sha2Password(account.name(), password);
        }
        return finish(ok, new ShardCredential.Password(password));
    }

    private Outcome decryptAndCheck(byte[] encrypted) {
        try {
            byte[] plain = RsaKeys.decrypt(rsaKeys.get().getPrivate(), encrypted, dialect.oaep());
            return checkPassword(stripNul(Scrambles.xorWithScramble(plain, scramble)));
        } catch (GeneralSecurityException e) {
            return fail();
        }
    }

    private Outcome finish(boolean ok, ShardCredential learned) {
        if (!ok) {
            return fail();
        }
        credential = learned;
        return new Outcome(null, step = Step.DONE);
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
