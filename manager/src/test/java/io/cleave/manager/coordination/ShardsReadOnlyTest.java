package io.cleave.manager.coordination;

import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class ShardsReadOnlyTest {

    /** A shard's read_only as the fake shards hold it, failing a number of times first (a commit waiting ahead). */
    private static final class FakeShards implements ShardsReadOnly.Setting {
        final Map<Integer, Boolean> readOnly = new ConcurrentHashMap<>();
        final Map<Integer, AtomicInteger> failuresLeft = new ConcurrentHashMap<>();
        final List<String> tries = new CopyOnWriteArrayList<>();

        @Override
        public void apply(int shard, boolean on) throws SQLException {
            tries.add(shard + "=" + on);
            AtomicInteger left = failuresLeft.get(shard);
            if (left != null && left.getAndDecrement() > 0) {
                throw new SQLException("Statement cancelled due to timeout or client request");
            }
            readOnly.put(shard, on);
        }
    }

    private static void await(java.util.function.BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    @Test
    void aShardWhereReadOnlyTimedOutIsTriedAgainUntilItTakes() throws Exception {
        FakeShards shards = new FakeShards();
        shards.failuresLeft.put(1, new AtomicInteger(3));
        try (ShardsReadOnly fence = new ShardsReadOnly(shards, Duration.ofMillis(20))) {
            fence.set(List.of(0, 1), true);
            await(() -> Boolean.TRUE.equals(shards.readOnly.get(1)));
            assertThat(shards.readOnly).containsEntry(0, true).containsEntry(1, true);
            assertThat(shards.tries).containsExactly("0=true", "1=true", "1=true", "1=true", "1=true");
            await(() -> fence.pending() == null);
            assertThat(fence.pending()).isNull();
        }
    }

    @Test
    void theStatusNamesTheShardsStillBeingTried() throws Exception {
        FakeShards shards = new FakeShards();
        shards.failuresLeft.put(1, new AtomicInteger(Integer.MAX_VALUE));
        try (ShardsReadOnly fence = new ShardsReadOnly(shards, Duration.ofMillis(20))) {
            fence.set(List.of(0, 1), true);
            await(() -> shards.tries.size() >= 3);
            assertThat(fence.pending()).isEqualTo("read_only ON not set yet on shard 1 (Statement cancelled due to"
                    + " timeout or client request): trying again");
        }
    }

    @Test
    void aLaterCallStopsTheRetriesOfAnEarlierOne() throws Exception {
        FakeShards shards = new FakeShards();
        shards.failuresLeft.put(1, new AtomicInteger(Integer.MAX_VALUE));
        try (ShardsReadOnly fence = new ShardsReadOnly(shards, Duration.ofMillis(20))) {
            fence.set(List.of(1), true);
            await(() -> shards.tries.size() >= 2);
            shards.failuresLeft.get(1).set(0);
            fence.set(List.of(1), false);
            await(() -> Boolean.FALSE.equals(shards.readOnly.get(1)));
            assertThat(shards.readOnly).containsEntry(1, false);
            int tries = shards.tries.size();
            Thread.sleep(100);
            assertThat(shards.tries).as("no try of the earlier read_only ON after the later OFF").hasSize(tries);
            assertThat(shards.tries.get(tries - 1)).isEqualTo("1=false");
            assertThat(fence.pending()).isNull();
        }
    }
}
