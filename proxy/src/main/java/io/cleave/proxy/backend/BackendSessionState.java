package io.cleave.proxy.backend;

import io.cleave.proxy.session.Charset;
import io.cleave.proxy.session.Collations;
import io.cleave.proxy.session.SessionSettings;

/** The session settings a backend connection currently carries. */
public final class BackendSessionState {

    /** What a fresh login leaves: no schema, the handshake's character set, server defaults otherwise. */
    private final SessionSettings fresh;
    private SessionSettings applied;

    BackendSessionState(int handshakeCollation) {
        Charset charset = Collations.byId(handshakeCollation);
        this.fresh = SessionSettings.initial(null, charset);
        this.applied = fresh;
    }

    public SessionSettings applied() {
        return applied;
    }

    public void applied(SessionSettings settings) {
        this.applied = settings;
    }

    /** The connection logged in again (COM_CHANGE_USER): it carries what a new connection carries. */
    void loggedInAgain() {
        this.applied = fresh;
    }
}
