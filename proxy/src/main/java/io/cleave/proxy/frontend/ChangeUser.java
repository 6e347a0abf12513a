package io.cleave.proxy.frontend;

import io.cleave.proxy.auth.FailedLogins;
import io.cleave.proxy.metrics.LoginAbort;
import io.cleave.proxy.metrics.RouteKind;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.packet.client.ComChangeUser;
import io.cleave.proxy.protocol.packet.server.AuthMoreData;
import io.cleave.proxy.protocol.packet.server.AuthSwitchRequest;
import io.cleave.proxy.session.Charset;
import io.cleave.proxy.session.Collations;
import io.netty.buffer.ByteBuf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * COM_CHANGE_USER for one session: the client logs in again as a proxy user (with the same
 * rounds as a first login: auth switch, caching_sha2_password's fast path or full
 * authentication), and on success the session starts over as that user, as a server does. A
 * failed attempt is denied with 1045 and closes the connection. Failed attempts count against
 * their 'user'@'host' as failed logins do, and wait out its delay as they do.
 */
final class ChangeUser {

    private static final Logger log = LoggerFactory.getLogger(ChangeUser.class);

    private final ClientSession session;
    private final ComChangeUser request;
    private final ClientLogin login;

    private ChangeUser(ClientSession session, ComChangeUser request, ClientLogin login) {
        this.session = session;
        this.request = request;
        this.login = login;
    }

    /**
     * Starts the login of a COM_CHANGE_USER once its 'user'@'host''s failed-login wait (if any) is over;
     * {@code waiting} gets the change while it waits for the client's next packet. The command's
     * payload stays valid meanwhile: the session is busy with the command until it ends.
     */
    static void start(ClientSession session, ByteBuf payload, LoginChallenge challenge, Consumer<ChangeUser> waiting) {
        ComChangeUser request = ComChangeUser.decode(payload, session.output().capabilities());
        FailedLogins failedLogins = session.runtime().failedLogins();
        long wait = failedLogins.admit(request.username(), challenge.clientHost(), System.nanoTime());
        if (wait == FailedLogins.REFUSED) {
            session.metrics().loginAborted(LoginAbort.THROTTLED);
            String why = failedLogins.refusal(request.username(), challenge.clientHost());
            log.warn("refused a COM_CHANGE_USER: {}", LogSafe.text(why));
            session.fatal(3955, "HY000", why);
            return;
        }
        Runnable begin = () -> {
            ClientLogin login = new ClientLogin(session.runtime().users(), session.runtime()::rsaKeys,
                    challenge.scramble(), challenge.secureTransport(), challenge.dialect());
            ChangeUser change = new ChangeUser(session, request, login);
            boolean pluginAuth = session.output().capabilities().pluginAuth();
            if (!change.after(login.start(request.username(), request.authPluginName(), request.authResponse(),
                    pluginAuth), challenge)) {
                waiting.accept(change);
            }
        };
        if (wait == 0) {
            begin.run();
            return;
        }
        session.loop().loop().schedule(() -> {
            if (session.output().channel().isActive()) {
                begin.run();
            }
        }, wait, TimeUnit.NANOSECONDS);
    }

    /** The client's answer to an authentication round; returns whether the change is over. */
    boolean onPacket(ByteBuf frame, LoginChallenge challenge) {
        session.output().respondTo(Frames.sequence(frame));
        return after(login.onPacket(Frames.payload(frame)), challenge);
    }

    private boolean after(ClientLogin.Outcome outcome, LoginChallenge challenge) {
        ClientOutput out = session.output();
        if (outcome.reply() instanceof AuthSwitchRequest sw) {
            out.packet(64, sw::write);
        } else if (outcome.reply() instanceof AuthMoreData more) {
            out.packet(8 + more.data().length, buf -> challenge.dialect().write(more, buf));
        }
        switch (outcome.step()) {
            case DONE:
                session.runtime().failedLogins().succeeded(login.userName(), challenge.clientHost());
                session.metrics().command(session.currentCommand(), RouteKind.LOCAL);
                Charset charset = Collations.byId(request.collationId());
                session.loggedInAs(login.userName(), request.database(), charset);
                return true;
            case FAILED:
                deny(challenge);
                return true;
            default:
                out.flush();
                return false;
        }
    }

    private void deny(LoginChallenge challenge) {
        String used = login.passwordUsed() ? "YES" : "NO";
        session.metrics().authFailed(login.userName());
        session.runtime().failedLogins().failed(login.userName(), challenge.clientHost());
        log.warn("access denied for user '{}' from {} on COM_CHANGE_USER (using password: {})",
                LogSafe.text(login.userName()), challenge.clientHost(), used);
        session.fatal(1045, "28000", "Access denied for user '" + login.userName() + "'@'" + challenge.clientHost()
                + "' (using password: " + used + ")");
    }
}
