package io.cleave.proxy.backend;

import io.cleave.proxy.session.Charset;
import io.cleave.proxy.session.Collations;
import io.cleave.proxy.session.SessionSettings;

/** The session settings a backend connection currently carries. */
public final class BackendSessionState {

    private SessionSettings applied;

    BackendSessionState(int handshakeCollation) {
        Charset charset = Collations.byId(handshakeCollation);
        this.applied = SessionSettings.initial(null, charset);
    }

    public SessionSettings applied() {
        return applied;
    }

    public void applied(SessionSettings settings) {
        this.applied = settings;
    }
}
