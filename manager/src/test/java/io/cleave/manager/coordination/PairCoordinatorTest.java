package io.cleave.manager.coordination;

import io.cleave.manager.config.CoordinationConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The pair's rules on a clock the test moves: a primary fences itself before its lease can lapse, a home that
 * finds a newer epoch stays fenced, and a standby takes over only once the primary's key has been gone for the
 * margin, and only when it wins the compare-and-set.
 */
class PairCoordinatorTest {

    /** Lease 4 s: margin 1 s. */
    private static final CoordinationConfig CONFIG = new CoordinationConfig(List.of("http://e:2379"), "t", Duration.ofSeconds(4));
    private static final PrimaryClaim B = new PrimaryClaim("b", "http://b:6134", 2);

    private final FakePairStore store = new FakePairStore();
    private final AtomicLong clock = new AtomicLong(1_000_000_000L);
    private final List<String> done = new CopyOnWriteArrayList<>();
    private final AtomicLong deadline = new AtomicLong();
    private final PairActions actions = new PairActions() {
        @Override
        public void fence(String reason) {
            done.add("fence: " + reason);
        }

        @Override
        public void leaseUntil(long nanos) {
            deadline.set(nanos);
        }

        @Override
        public void serve() {
            done.add("serve");
        }

        @Override
        public void promote(long epoch) {
            done.add("promote " + epoch);
        }
    };

    private PairCoordinator coordinator(String host) {
        return new PairCoordinator(CONFIG, store, actions, host, "http://" + host + ":6034", clock::get, false);
    }

    private void advance(long millis) {
        clock.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    @Test
    void aPrimaryThatCannotRenewFencesItselfAMarginBeforeItsLeaseCouldLapse() {
        PairCoordinator a = coordinator("a");
        assertThat(a.startPrimary(1)).isTrue();
        assertThat(store.claim.admin()).isEqualTo("http://a:6034");
        advance(250);
        a.tick();
        assertThat(a.report().holdsLease()).isTrue();
        assertThat(deadline.get()).as("the proxy stops on its own a margin before the lease could lapse")
                .isEqualTo(clock.get() + TimeUnit.SECONDS.toNanos(3));

        store.reachable = false;
        advance(2_999);
        a.tick();
        a.watchLease();
        assertThat(a.state()).as("the lease surely lives until 4 s after the last renewal was sent, less the margin").isEqualTo(PairState.PRIMARY);
        assertThat(done).isEmpty();

        advance(1);
        a.watchLease();
        assertThat(a.state()).isEqualTo(PairState.FENCED);
        assertThat(a.report().holdsLease()).isFalse();
        assertThat(done).singleElement().asString().startsWith("fence: could not renew the primary's lease in etcd")
                .contains("no answer from etcd");
    }

    @Test
    void aPrimaryWhoseLeaseEtcdLetLapseFencesAtTheNextRenewal() {
        PairCoordinator a = coordinator("a");
        a.startPrimary(1);
        store.lapse();
        a.tick();
        assertThat(a.state()).isEqualTo(PairState.FENCED);
        assertThat(done).singleElement().asString().contains("lapsed");
    }

    @Test
    void aFencedPrimaryThatFindsANewerEpochStaysFencedAndNamesTheNewPrimary() throws Exception {
        PairCoordinator a = fencedForWantOfEtcd();
        store.takeOver(1, B, 99);

        a.tick();

        assertThat(a.state()).isEqualTo(PairState.SUPERSEDED);
        assertThat(done).hasSize(2).last().asString().contains("the primary is now http://b:6134 (b, epoch 2)");
        a.tick();
        assertThat(a.state()).as("for good").isEqualTo(PairState.SUPERSEDED);
        assertThat(done).doesNotContain("serve");
    }

    @Test
    void aDaemonStartingBehindANewerEpochDoesNotServe() {
        store.epoch = 2;
        store.claim = B;
        PairCoordinator a = coordinator("a");

        assertThat(a.startPrimary(1)).isFalse();
        assertThat(a.state()).isEqualTo(PairState.SUPERSEDED);
        assertThat(done).singleElement().asString().contains("http://b:6134");
    }

    @Test
    void aPrimaryFencedForWantOfEtcdServesAgainWhenNobodyTookOver() throws InterruptedException {
        PairCoordinator a = fencedForWantOfEtcd();

        a.tick();

        assertThat(a.state()).isEqualTo(PairState.PRIMARY);
        awaitDone("serve");
        a.close();
    }

    @Test
    void theStandbyTakesOverOnlyOnceThePrimarysKeyHasBeenGoneForTheMargin() throws InterruptedException {
        PairCoordinator a = coordinator("a");
        a.startPrimary(1);
        PairCoordinator b = coordinator("b");
        b.startStandby(1);
        b.tick();
        assertThat(b.report().primary().host()).isEqualTo("a");

        store.lapse();
        b.tick();
        advance(999);
        b.tick();
        assertThat(b.state()).isEqualTo(PairState.STANDBY);
        assertThat(store.epoch).isEqualTo(1);

        advance(1);
        b.tick();
        assertThat(b.state()).isIn(PairState.PROMOTING, PairState.PRIMARY);
        assertThat(store.epoch).isEqualTo(2);
        assertThat(store.claim.host()).isEqualTo("b");
        awaitDone("promote 2");
        assertThat(b.report().holdsLease()).isTrue();
        b.close();
    }

    @Test
    void aPrimaryThatComesBackBeforeTheMarginKeepsItsPlace() throws Exception {
        coordinator("a").startPrimary(1);
        PairCoordinator b = coordinator("b");
        b.startStandby(1);
        store.lapse();
        b.tick();
        advance(500);
        store.claim(new PrimaryClaim("a", "http://a:6034", 1), store.grantLease(CONFIG.lease()));
        b.tick();
        advance(600);
        b.tick();
        assertThat(b.state()).isEqualTo(PairState.STANDBY);
        assertThat(store.epoch).isEqualTo(1);
    }

    @Test
    void aStandbyThatLosesTheTakeOverDoesNotPromote() {
        coordinator("a").startPrimary(1);
        PairCoordinator b = coordinator("b");
        b.startStandby(1);
        store.lapse();
        store.winsTakeOver = false;
        b.tick();
        advance(1_000);
        b.tick();
        assertThat(b.state()).isEqualTo(PairState.STANDBY);
        assertThat(done).isEmpty();
    }

    @Test
    void aSwitchoverMovesTheLiveClaimInOneStepAndTheOldPrimaryWatchesAsTheStandby() throws Exception {
        PairCoordinator a = coordinator("a");
        a.startPrimary(1);
        PairCoordinator b = coordinator("b");
        b.startStandby(1);

        assertThat(b.takeOverLive(1)).isEqualTo(2);
        assertThat(store.epoch).isEqualTo(2);
        assertThat(store.claim).as("one compare-and-set: the claim is b's, never nobody's").isEqualTo(
                new PrimaryClaim("b", "http://b:6034", 2));
        assertThat(b.state()).isEqualTo(PairState.PROMOTING);
        assertThat(b.report().holdsLease()).isTrue();
        b.promoted();
        assertThat(b.state()).isEqualTo(PairState.PRIMARY);

        a.handedOver(2);
        advance(60_000);
        a.watchLease();
        a.tick();
        b.tick();
        assertThat(a.state()).as("neither fenced nor superseded").isEqualTo(PairState.STANDBY);
        assertThat(a.report().holdsLease()).isFalse();
        assertThat(a.report().primary().host()).isEqualTo("b");
        assertThat(b.state()).isEqualTo(PairState.PRIMARY);
        assertThat(done).as("nobody fenced or promoted").isEmpty();

        // And back, the same way; then the old primary's loss is a failover like any.
        assertThat(a.takeOverLive(2)).isEqualTo(3);
        a.promoted();
        b.handedOver(3);
        assertThat(store.claim.host()).isEqualTo("a");
        store.lapse();
        b.tick();
        advance(1_000);
        b.tick();
        assertThat(store.epoch).isEqualTo(4);
        assertThat(store.claim.host()).isEqualTo("b");
        awaitDone("promote 4");
        assertThat(done).noneMatch(d -> d.startsWith("fence"));
        b.close();
    }

    @Test
    void aSwitchoverTakeOverIsRefusedUnlessThePrimaryAtThatEpochHoldsItsClaim() {
        PairCoordinator a = coordinator("a");
        a.startPrimary(1);
        PairCoordinator b = coordinator("b");
        b.startStandby(1);

        assertThatThrownBy(() -> b.takeOverLive(2)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("not the standby at epoch 2").hasMessageContaining("nothing was changed");
        store.lapse();
        assertThatThrownBy(() -> b.takeOverLive(1)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no primary holds the lease");
        assertThat(store.epoch).isEqualTo(1);
        assertThat(store.claim).isNull();
        assertThat(b.state()).isEqualTo(PairState.STANDBY);
        assertThat(b.report().holdsLease()).isFalse();
    }

    /** A primary that lost etcd long enough to fence itself; etcd answers again and its lease has lapsed there. */
    private PairCoordinator fencedForWantOfEtcd() {
        PairCoordinator a = coordinator("a");
        a.startPrimary(1);
        store.reachable = false;
        advance(3_000);
        a.watchLease();
        assertThat(a.state()).isEqualTo(PairState.FENCED);
        store.reachable = true;
        store.lapse();
        return a;
    }

    private void awaitDone(String action) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!done.contains(action) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(done).contains(action);
    }
}
