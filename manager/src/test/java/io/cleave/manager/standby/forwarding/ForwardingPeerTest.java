package io.cleave.manager.standby.forwarding;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class ForwardingPeerTest {

    private static final String A = "http://10.0.0.1:6034";

    @TempDir
    Path state;

    /** Answers as the old primary's daemon would, recording each question. */
    private final List<String> asked = new ArrayList<>();
    private final AtomicReference<Object> answer = new AtomicReference<>();

    private ForwardingPeer peer() {
        return new ForwardingPeer(state, url -> {
            asked.add(url);
            Object a = answer.get();
            if (a instanceof IOException e) {
                throw e;
            }
            return (PeerProxy) a;
        });
    }

    @Test
    void withoutATakeOverNothingIsAskedAndNothingRefused() {
        ForwardingPeer peer = peer();
        assertThat(peer.refusal("a move")).isNull();
        assertThat(peer.knownRefusal("a build")).isNull();
        peer.poll();
        assertThat(asked).isEmpty();
    }

    @Test
    void aForwardingProxyRefusesLayoutChangesNamingItAndWhatToDo() {
        ForwardingPeer.mark(state, A);
        answer.set(new PeerProxy(true, true, "listening on 127.0.0.1:6033; forwarding its clients"));
        ForwardingPeer peer = peer();
        assertThat(peer.refusal("a move of keys 1-20 of branch")).contains(A).contains("runs a proxy (listening on")
                .contains("a move of keys 1-20 of branch is refused while it forwards")
                .contains("cleave standby --stop-forwarding");
        peer.poll();
        assertThat(peer.knownRefusal("a global unique key's build")).contains(A)
                .contains("a global unique key's build is refused");
        assertThat(asked).containsExactly(A, A);
    }

    @Test
    void aPeerThatCannotBeAskedCountsAsForwarding() {
        ForwardingPeer.mark(state, A);
        answer.set(new IOException("the daemon at " + A + " does not answer"));
        ForwardingPeer peer = peer();
        assertThat(peer.refusal("a scale from 2 to 3 shards")).startsWith("cannot ask " + A)
                .contains("does not answer").contains("a scale from 2 to 3 shards is refused")
                .contains("cleave standby --forwarding-gone");
        peer.poll();
        assertThat(peer.peer()).contains(A);
    }

    @Test
    void onceItsProxyStoppedThePeerIsForgottenAndChangesAreTaken() {
        ForwardingPeer.mark(state, A);
        answer.set(new PeerProxy(false, false, "standby of http://10.0.0.2:6034: the primary serves clients"));
        ForwardingPeer peer = peer();
        assertThat(peer.refusal("an import")).isNull();
        assertThat(peer.peer()).isEmpty();
        assertThat(peer.refusal("an import")).isNull();
        assertThat(asked).containsExactly(A);
    }

    @Test
    void aPollForgetsAStoppedProxyButNotATakeOverMarkedWhileItAsked() {
        ForwardingPeer.mark(state, A);
        ForwardingPeer peer = new ForwardingPeer(state, url -> {
            // The pair switched back and over again while the question was under way: a new take-over marked it.
            ForwardingPeer.mark(state, url);
            return new PeerProxy(false, false, "stopped");
        });
        peer.poll();
        assertThat(peer.peer()).as("the newer take-over's mark").contains(A);
        ForwardingPeer.forget(state);
        assertThat(peer.peer()).isEmpty();
    }
}
