package io.cleave.bench.proxy;

import io.cleave.proxy.backend.BackendStatement;
import io.cleave.proxy.backend.PreparedSql;
import io.cleave.proxy.backend.PreparedStatementCache;
import io.cleave.proxy.session.Collations;
import io.cleave.proxy.session.SessionSettings;
import io.cleave.router.sql.lex.Charsets;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Per-execute work of the proxy's COM_STMT_EXECUTE path that does not depend on the network, as
 * it was ({@code *Before}) and as it is: the client's Java character set (resolved by name on
 * every execute, twice, before; now once per session settings), and the backend connection's
 * statement for the client's statement (two lookups per execute before, one now). The cache
 * holds the 34 statements the TPC-C driver prepares; the key comes from another client session
 * than the one that prepared it on this connection (equal text, separate arrays), as with pooled
 * connections.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ExecutePathBenchmark {

    private SessionSettings settings;
    private PreparedStatementCache cache;
    private PreparedSql lookedUp;

    @Setup
    public void setUp() {
        settings = SessionSettings.initial("tpcc", Collations.byId(45));
        cache = new PreparedStatementCache(256);
        List<PreparedSql> texts = new ArrayList<>();
        for (int i = 0; i < 34; i++) {
            // TPC-C's statements are 60-300 bytes; what matters is equal text in different arrays.
            String sql = "SELECT s_quantity, s_data, s_dist_01, s_dist_02, s_dist_03, s_dist_04, s_dist_05, s_dist_06,"
                    + " s_dist_07, s_dist_08, s_dist_09, s_dist_10 FROM stock WHERE s_i_id = ? AND s_w_id = ? /* " + i
                    + " */ FOR UPDATE";
            PreparedSql key = new PreparedSql(sql.getBytes(StandardCharsets.UTF_8));
            texts.add(key);
            cache.put(key, new BackendStatement(i + 1, 2, 12));
        }
        lookedUp = new PreparedSql(texts.get(17).toString().getBytes(StandardCharsets.UTF_8));
    }

    @Benchmark
    public void clientCharsetBefore(Blackhole bh) {
        bh.consume(Charsets.javaCharset(settings.clientCharset()));
        bh.consume(Charsets.javaCharset(settings.clientCharset()));
    }

    @Benchmark
    public void clientCharset(Blackhole bh) {
        bh.consume(settings.clientJavaCharset());
        bh.consume(settings.clientJavaCharset());
    }

    @Benchmark
    public void backendStatementBefore(Blackhole bh) {
        bh.consume(cache.get(lookedUp));
        bh.consume(cache.get(lookedUp));
    }

    @Benchmark
    public void backendStatement(Blackhole bh) {
        bh.consume(cache.get(lookedUp));
    }
}
