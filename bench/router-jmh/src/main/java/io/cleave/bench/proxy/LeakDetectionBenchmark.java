package io.cleave.bench.proxy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.ResourceLeakDetector;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * A pooled direct buffer allocated, written and released, as the proxy does several times per
 * statement (frames read, execute frames rebuilt, packets written), with Netty's leak detector
 * at its default level (SIMPLE: one buffer in 128 tracked, with a stack trace) and off, as the
 * daemon now runs it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class LeakDetectionBenchmark {

    @Param({"SIMPLE", "DISABLED"})
    public ResourceLeakDetector.Level level;

    private PooledByteBufAllocator allocator;

    @Setup
    public void setUp() {
        ResourceLeakDetector.setLevel(level);
        allocator = PooledByteBufAllocator.DEFAULT;
    }

    @Benchmark
    public int pooledBuffer() {
        ByteBuf buf = allocator.directBuffer(256);
        buf.writeLong(42).writeInt(7);
        int n = buf.readableBytes();
        buf.release();
        return n;
    }
}
