package io.cleave.proxy.backend;

import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.Hex;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.transport.Transport;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A deadlock victim's statement is stopped with KILL QUERY: its connection answers the error the
 * server gives for that (1317, query interrupted) as the deadlock it is, and only for the
 * statement that was running; the pool's line lets the detector see and take out a waiter.
 */
class StoppedStatementTest {

    /** ERR 1317 70100 "Query execution was interrupted", as MariaDB 11.4 answers a killed lock wait. */
    private static final String INTERRUPTED = "ff2505233730313030" + hex("Query execution was interrupted");
    private static final String OK = "00000002000000";
    private static final ErrPacket DEADLOCK = new ErrPacket(1213, "40001",
            "Deadlock found when trying to get lock; try restarting transaction (deadlock across shards 0, 1)");

    private final EmbeddedChannel channel = new EmbeddedChannel();
    private final BackendConnection connection = new BackendConnection(channel,
            new ShardEndpoint(1, null, new InetSocketAddress("127.0.0.1", 3306), "u", new byte[0]),
            Capabilities.PROXY_SERVER, new ServerInfo("11.4.5-MariaDB", Capabilities.PROXY_SERVER, 45), 57, 4, ShardLogin.SHARD_ACCOUNT, 0);
    private final Recording sink = new Recording();

    @AfterEach
    void close() {
        channel.releaseOutbound();
    }

    @Test
    void theStoppedStatementsErrorReachesItsSinkAsTheDeadlock() {
        connection.send(Unpooled.buffer(), ResponseKind.RESULT, sink);
        assertThat(connection.failRunningStatementAs(DEADLOCK)).isTrue();

        connection.onFrame(Hex.frame(1, INTERRUPTED));

        assertThat(sink.errors).containsExactly(DEADLOCK);
        assertThat(sink.sequences).containsExactly(1);
        assertThat(sink.completedCodes).containsExactly(1213);
    }

    @Test
    void aStatementThatEndedBeforeItWasStoppedLeavesTheNextOneAlone() {
        connection.send(Unpooled.buffer(), ResponseKind.RESULT, sink);
        connection.failRunningStatementAs(DEADLOCK);
        connection.onFrame(Hex.frame(1, OK));
        connection.send(Unpooled.buffer(), ResponseKind.RESULT, sink);

        connection.onFrame(Hex.frame(1, INTERRUPTED));

        assertThat(sink.errors).extracting(ErrPacket::errorCode).containsExactly(1317);
        assertThat(sink.completedCodes).containsExactly(0, 1317);
    }

    @Test
    void nothingRunningCannotBeStopped() {
        assertThat(connection.failRunningStatementAs(DEADLOCK)).isFalse();
    }

    @Test
    void aPoolLineNamesItsWaitersAndGivesUpOneThatIsTakenOut() {
        BackendConnector connector = new BackendConnector(
                new ShardEndpoint(1, null, new InetSocketAddress("127.0.0.1", 3306), "u", new byte[0]), Transport.NIO, 4, 1000);
        BackendPool pool = new BackendPool(channel.eventLoop(), connector, 0, 60_000, PoolMetrics.NONE, new ShardLogins());
        List<Integer> lines = new ArrayList<>();
        ConnectionWaiter victim = lines::add;
        ConnectionWaiter other = shard -> { };
        List<Throwable> failures = new ArrayList<>();
        pool.acquire(ShardLogin.SHARD_ACCOUNT, callback(victim, failures));
        pool.acquire(ShardLogin.SHARD_ACCOUNT, callback(other, failures));
        pool.acquire(ShardLogin.SHARD_ACCOUNT, callback(null, failures));

        assertThat(lines).containsExactly(1);
        assertThat(pool.waiting()).isEqualTo(3);
        assertThat(pool.waitersInLine()).containsExactly(victim, other);

        RuntimeException cause = new RuntimeException("deadlock victim");
        assertThat(pool.cancel(victim, cause)).isTrue();
        assertThat(failures).containsExactly(cause);
        assertThat(pool.waitersInLine()).containsExactly(other);
        assertThat(pool.cancel(victim, cause)).isFalse();
        pool.close();
    }

    private static AcquireCallback callback(ConnectionWaiter waiter, List<Throwable> failures) {
        return new AcquireCallback() {
            @Override
            public void acquired(BackendConnection connection) {
                throw new AssertionError("no connection can be had");
            }

            @Override
            public void failed(Throwable cause) {
                failures.add(cause);
            }

            @Override
            public ConnectionWaiter waiter() {
                return waiter;
            }
        };
    }

    private static String hex(String text) {
        return java.util.HexFormat.of().formatHex(text.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }

    private static final class Recording implements ResponseSink {
        final List<ErrPacket> errors = new ArrayList<>();
        final List<Integer> sequences = new ArrayList<>();
        final List<Integer> completedCodes = new ArrayList<>();

        @Override
        public void frame(BackendConnection connection, ByteBuf frame, FrameKind kind) {
            if (kind == FrameKind.ERR) {
                errors.add(ErrPacket.decode(Frames.payload(frame)));
                sequences.add(Frames.sequence(frame));
            }
            frame.release();
        }

        @Override
        public void complete(BackendConnection connection, ResponseTracker tracker) {
            completedCodes.add(tracker.isError() ? tracker.errorCode() : 0);
        }

        @Override
        public void failed(BackendConnection connection, Throwable cause) {
            throw new AssertionError(cause);
        }
    }
}
