package io.cleave.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class WorkloadGateTest {

    @Test
    void pauseWaitsForTheUnitsUnderWayAndHoldsNewOnesUntilResumed() throws Exception {
        WorkloadGate gate = new WorkloadGate();
        assertThat(gate.enter()).isTrue();
        CompletableFuture<Integer> paused = CompletableFuture.supplyAsync(() -> {
            try {
                return gate.pause(Duration.ofSeconds(10));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(100);
        assertThat(paused).isNotDone();
        gate.exit();
        assertThat(paused.get(5, TimeUnit.SECONDS)).isZero();
        CompletableFuture<Boolean> next = CompletableFuture.supplyAsync(() -> {
            try {
                return gate.enter();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(100);
        assertThat(next).isNotDone();
        gate.resume();
        assertThat(next.get(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void aPauseGivesUpAfterItsTimeoutSayingHowManyStillRun() throws Exception {
        WorkloadGate gate = new WorkloadGate();
        gate.enter();
        gate.enter();
        gate.exit();
        assertThat(gate.pause(Duration.ofMillis(50))).isEqualTo(1);
    }

    @Test
    void stopReleasesWaitingClientsWithFalse() throws Exception {
        WorkloadGate gate = new WorkloadGate();
        gate.pause(Duration.ZERO);
        CompletableFuture<Boolean> waiting = CompletableFuture.supplyAsync(() -> {
            try {
                return gate.enter();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(50);
        gate.stop();
        assertThat(waiting.get(5, TimeUnit.SECONDS)).isFalse();
    }
}
