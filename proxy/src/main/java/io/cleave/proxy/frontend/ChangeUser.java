package io.cleave.proxy.frontend;

import io.cleave.proxy.auth.FailedLogins;
import io.cleave.proxy.backend.ShardLogin;
import io.cleave.proxy.metrics.LoginAbort;
import io.cleave.proxy.metrics.RouteKind;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.MalformedPacketException;
import io.cleave.proxy.protocol.packet.client.ComChangeUser;
import io.cleave.proxy.protocol.packet.server.AuthMoreData;
import io.cleave.proxy.protocol.packet.server.AuthSwitchRequest;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.session.Charset;
import io.cleave.proxy.session.Collations;
import io.netty.buffer.ByteBuf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * COM_CHANGE_USER: the client logs in again as an account of the shards (with the same rounds as
 * a first login: auth switch, caching_sha2_password's fast path or full authentication), and on
 * success the session starts over as that account, its statements on backend connections logged
 * in as it, as a server does. A failed attempt is denied with 1045
 * and closes the connection. Failed attempts count against their 'user'@'host' as failed logins
 * do, and wait out its delay as they do. While the login waits for the client's next packet, that
 * packet is the command's, not a new command.
 */
final class ChangeUser {

    private static final Logger log = LoggerFactory.getLogger(ChangeUser.class);

    private final Session session;
    private final LoginChallenge challenge;
    /** The COM_CHANGE_USER waiting for the client's next authentication packet, or null. */
    private Command waiting;
    private ComChangeUser request;
    private ClientLogin login;

    ChangeUser(Session session, LoginChallenge challenge) {
        this.session = session;
        this.challenge = challenge;
    }

    /**
     * Starts the login once its 'user'@'host''s failed-login wait (if any) is over. The command
     * runs meanwhile, so the client's packets wait for it; the request is decoded before, so
     * nothing of the command's payload is read after the wait.
     */
    void start(Command command) {
        request = ComChangeUser.decode(command.payload(), session.output().capabilities());
        FailedLogins failedLogins = session.runtime().failedLogins();
        long wait = failedLogins.admit(request.username(), challenge.clientHost(), System.nanoTime());
        if (wait == FailedLogins.REFUSED) {
            session.metrics().loginAborted(LoginAbort.THROTTLED);
            String why = failedLogins.refusal(request.username(), challenge.clientHost());
            log.warn("refused a COM_CHANGE_USER: {}", LogSafe.text(why));
            command.fatal(3955, "HY000", why);
            return;
        }
        if (wait == 0) {
            begin(command);
            return;
        }
        session.loop().loop().schedule(() -> {
            if (session.output().channel().isActive()) {
                begin(command);
            } else {
                // The client left while it waited: nobody is left to answer.
                command.finishSilently();
            }
        }, wait, TimeUnit.NANOSECONDS);
    }

    private void begin(Command command) {
        login = new ClientLogin(session.runtime().accounts(), session.runtime()::rsaKeys, challenge.scramble(),
                challenge.secureTransport(), challenge.dialect(), challenge.client());
        boolean pluginAuth = session.output().capabilities().pluginAuth();
        after(command, login.start(request.username(), request.authPluginName(), request.authResponse(), pluginAuth));
    }

    boolean awaitingClient() {
        return waiting != null;
    }

    /** The client's answer to an authentication round (the frame is released here). */
    void onPacket(ByteBuf frame) {
        Command command = waiting;
        waiting = null;
        try {
            session.output().respondTo(Frames.sequence(frame));
            after(command, login.onPacket(Frames.payload(frame)));
        } catch (MalformedPacketException | IndexOutOfBoundsException | IllegalStateException e) {
            command.fatal(1835, "08S01", "Malformed communication packet: " + MalformedPacketException.reason(e));
        } finally {
            frame.release();
        }
    }

    private void after(Command command, ClientLogin.Outcome outcome) {
        ClientOutput out = session.output();
        if (outcome.reply() instanceof AuthSwitchRequest sw) {
            out.packet(64, sw::write);
        } else if (outcome.reply() instanceof AuthMoreData more) {
            out.packet(8 + more.data().length, buf -> challenge.dialect().write(more, buf));
        }
        switch (outcome.step()) {
            case DONE:
                session.runtime().failedLogins().succeeded(login.userName(), challenge.clientHost());
                ErrPacket refused = login.refusal(System.currentTimeMillis() / 1000);
                if (refused != null) {
                    command.fatal(refused.errorCode(), refused.sqlState(), refused.message());
                    return;
                }
                ShardLogin shardLogin = session.runtime().accounts().loginFor(login.userName(), login.account(),
                        challenge.client(), session.shardLogin().profile(), login.credential(),
                        session.runtime().proxyProtocol());
                if (shardLogin == null) {
                    session.runtime().accounts().left(login.account().name());
                    command.fatal(1045, "28000", login.denial() + ": the shards would take the proxy's connections for "
                            + login.account().name() + " as another account, and their server has no PROXY protocol");
                    return;
                }
                command.served(RouteKind.LOCAL);
                Charset charset = Collations.byId(request.collationId());
                session.loggedInAs(new SessionAccount(login.userName(), login.account(), shardLogin),
                        request.database(), charset);
                LoginSchema.admit(session, request.database(), databaseRefused -> {
                    if (databaseRefused != null) {
                        command.fatal(databaseRefused.errorCode(), databaseRefused.sqlState(), databaseRefused.message());
                    } else {
                        command.ok();
                    }
                });
                return;
            case FAILED:
                deny(command);
                return;
            default:
                out.flush();
                waiting = command;
        }
    }

    private void deny(Command command) {
        String used = login.passwordUsed() ? "YES" : "NO";
        session.metrics().authFailed(login.userName());
        session.runtime().failedLogins().failed(login.userName(), challenge.clientHost());
        log.warn("access denied for user '{}' from {} on COM_CHANGE_USER (using password: {})",
                LogSafe.text(login.userName()), challenge.clientHost(), used);
        command.fatal(1045, "28000", login.denial());
    }
}
