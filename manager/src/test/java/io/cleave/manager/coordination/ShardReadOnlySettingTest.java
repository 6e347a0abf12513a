package io.cleave.manager.coordination;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShardReadOnlySettingTest {

    /**
     * A shard that answers the count of commits waiting for the standby from its script (the last answer repeats)
     * and records every statement it is sent, each connection's ending as "close".
     */
    private static final class ScriptedShard implements ShardReadOnlySetting.Statements {
        final Queue<Long> waiting = new ConcurrentLinkedQueue<>();
        final List<String> received = new CopyOnWriteArrayList<>();
        volatile long lastWaiting;

        ScriptedShard waiting(long... counts) {
            for (long c : counts) {
                waiting.add(c);
            }
            return this;
        }

        @Override
        public long number(String sql) {
            received.add(sql);
            Long next = waiting.poll();
            if (next != null) {
                lastWaiting = next;
            }
            return lastWaiting;
        }

        @Override
        public void execute(String sql) {
            received.add(sql);
        }

        @Override
        public void close() {
            received.add("close");
        }
    }

    @Test
    void readOnlyIsNotAskedForWhileCommitsWaitForTheStandby() {
        ScriptedShard shard = new ScriptedShard().waiting(2);
        ShardReadOnlySetting setting = new ShardReadOnlySetting(s -> shard);
        assertThatThrownBy(() -> setting.apply(0, true)).isInstanceOf(SQLException.class)
                .hasMessageStartingWith("2 commit(s) wait for the standby's acknowledgement");
        assertThat(shard.received).as("no global read lock taken behind them")
                .containsExactly(ShardReadOnlySetting.WAITING_COMMITS, "close");
    }

    @Test
    void withNoCommitWaitingReadOnlyIsSetWithAShortLockWait() throws Exception {
        ScriptedShard shard = new ScriptedShard().waiting(0);
        new ShardReadOnlySetting(s -> shard).apply(0, true);
        assertThat(shard.received).containsExactly(ShardReadOnlySetting.WAITING_COMMITS,
                "SET SESSION lock_wait_timeout = 1", "SET GLOBAL read_only = ON", "close");
    }

    @Test
    void turningItOffDoesNotLookAtWaitingCommits() throws Exception {
        ScriptedShard shard = new ScriptedShard().waiting(3);
        new ShardReadOnlySetting(s -> shard).apply(0, false);
        assertThat(shard.received).containsExactly("SET SESSION lock_wait_timeout = 1", "SET GLOBAL read_only = OFF",
                "close");
    }

    @Test
    void theFenceTriesAgainUntilTheWaitingCommitsAreGoneAndTheStatusSaysWhy() throws Exception {
        ScriptedShard shard = new ScriptedShard().waiting(1, 1, 1);
        try (ShardsReadOnly fence = new ShardsReadOnly(new ShardReadOnlySetting(s -> shard), Duration.ofMillis(20))) {
            fence.set(List.of(0), true);
            await(() -> shard.received.stream().filter(ShardReadOnlySetting.WAITING_COMMITS::equals).count() >= 2);
            assertThat(fence.pending()).startsWith("read_only ON not set yet on shard 0 (1 commit(s) wait for the"
                    + " standby's acknowledgement");
            assertThat(shard.received).doesNotContain("SET GLOBAL read_only = ON");
            shard.waiting(0);
            await(() -> fence.pending() == null);
            assertThat(fence.pending()).isNull();
            assertThat(shard.received.stream().filter(s -> s.startsWith("SET GLOBAL")).toList())
                    .containsExactly("SET GLOBAL read_only = ON");
        }
    }

    private static void await(java.util.function.BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }
}
