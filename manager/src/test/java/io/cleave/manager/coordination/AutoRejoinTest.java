package io.cleave.manager.coordination;

import io.cleave.manager.standby.PairPeer;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

class AutoRejoinTest {

    private static final String B = "http://10.0.0.2:6034";
    private static final PairPeer KNOWN = new PairPeer(B, "tok-b");

    private final AtomicReference<CoordinationReport> pair = new AtomicReference<>();
    private final AtomicReference<Optional<PairPeer>> peer = new AtomicReference<>(Optional.of(KNOWN));
    private final List<String> calls = new ArrayList<>();
    private final List<String> notes = new ArrayList<>();
    private RejoinReport answer = new RejoinReport(true, 2, B, List.of("shard 0: replicates from 0-1000-5"));
    private final AutoRejoin auto = new AutoRejoin(pair::get, peer::get, (url, token) -> {
        calls.add(url + " " + token);
        if (answer == null) {
            throw new java.io.IOException("connection refused");
        }
        return answer;
    }, notes::add);

    private static CoordinationReport report(PairState state, PrimaryClaim claim) {
        return new CoordinationReport(state, claim == null ? 2 : claim.epoch(), claim, false, 0, "fenced", "c",
                List.of("http://e:2379"), null);
    }

    @Test
    void aSupersededHomeRejoinsTheNewPrimaryItKnowsWithItsToken() {
        pair.set(report(PairState.SUPERSEDED, new PrimaryClaim("b", B + "/", 2)));
        auto.tick();
        assertThat(calls).containsExactly(B + "/ tok-b");
        assertThat(notes).containsExactly((String) null);
    }

    @Test
    void nothingIsTriedUnlessSuperseded() {
        for (PairState s : new PairState[] {PairState.PRIMARY, PairState.STANDBY, PairState.FENCED, PairState.STARTING}) {
            pair.set(report(s, new PrimaryClaim("b", B, 2)));
            auto.tick();
        }
        assertThat(calls).isEmpty();
    }

    @Test
    void aPrimaryWhoseTokenThisHomeWasNotToldIsLeftToCleaveRejoin() {
        pair.set(report(PairState.SUPERSEDED, new PrimaryClaim("c", "http://10.0.0.3:6034", 2)));
        auto.tick();
        peer.set(Optional.empty());
        pair.set(report(PairState.SUPERSEDED, new PrimaryClaim("b", B, 2)));
        auto.tick();
        assertThat(calls).isEmpty();
        assertThat(notes).hasSize(2).allSatisfy(n -> assertThat(n).contains("needs the admin token of")
                .contains("cleave rejoin --primary"));
    }

    @Test
    void aRefusalIsKeptAndNotTriedAgainAtThatEpoch() {
        answer = new RejoinReport(false, 2, B, List.of("shard 0: 0-1000-9 (the new primary has up to 0-1000-8)"));
        pair.set(report(PairState.SUPERSEDED, new PrimaryClaim("b", B, 2)));
        auto.tick();
        auto.tick();
        assertThat(calls).hasSize(1);
        assertThat(notes).singleElement().asString().contains("refused").contains("0-1000-9")
                .contains("cleave rejoin --rebuild").contains("never by itself");
        // A newer primary (epoch 3) is a new question.
        pair.set(report(PairState.SUPERSEDED, new PrimaryClaim("b", B, 3)));
        auto.tick();
        assertThat(calls).hasSize(2);
    }

    @Test
    void aFailureIsTriedAgainAtTheNextTick() {
        answer = null;
        pair.set(report(PairState.SUPERSEDED, new PrimaryClaim("b", B, 2)));
        auto.tick();
        auto.tick();
        assertThat(calls).hasSize(2);
        assertThat(notes).allSatisfy(n -> assertThat(n).contains("tried again").contains("connection refused"));
    }
}
