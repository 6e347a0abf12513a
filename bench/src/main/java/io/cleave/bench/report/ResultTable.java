package io.cleave.bench.report;

import io.cleave.bench.tpcc.run.ErrorStat;
import io.cleave.bench.tpcc.run.IntervalSample;
import io.cleave.bench.tpcc.run.LatencySummary;
import io.cleave.bench.tpcc.run.RunResult;
import io.cleave.bench.tpcc.run.TransactionSummary;
import io.cleave.bench.tpcc.txn.TransactionType;
import java.util.Locale;

/** The text a person reads on stdout: one line per interval while running, a table at the end. */
public final class ResultTable {

    private ResultTable() {
    }

    public static String progressLine(IntervalSample s, double tpmCSoFar) {
        StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "[%7.1fs] %-7s tpmC %9.0f  so far %9.0f  tps",
            s.endSeconds(), s.warmup() ? "warmup" : "measure", s.tpmC(), tpmCSoFar));
        for (TransactionType type : TransactionType.values()) {
            line.append(String.format(Locale.ROOT, " %s %.1f", abbreviation(type), s.tps().getOrDefault(type, 0.0)));
        }
        return line.append("  errors ").append(s.errors()).toString();
    }

    public static String render(RunResult r) {
        StringBuilder out = new StringBuilder();
        out.append(String.format(Locale.ROOT, "%n%s: %d warehouses, %d connections, %.0f s measured after %.0f s warm-up, %s%n",
            r.label(), r.config().warehouses(), r.config().connections(), r.measuredSeconds(),
            r.config().warmupSeconds(), r.config().isolation()));
        out.append(String.format(Locale.ROOT, "tpmC %.1f   total tpm %.1f%n%n", r.tpmC(), r.totalTpm()));
        out.append(String.format(Locale.ROOT, "%-12s %9s %9s %7s %8s %9s %9s %9s %9s %9s%n", "transaction", "count",
            "rollback", "failed", "retries", "p50 ms", "p90 ms", "p95 ms", "p99 ms", "max ms"));
        for (TransactionSummary t : r.transactions()) {
            LatencySummary l = t.latency();
            out.append(String.format(Locale.ROOT, "%-12s %9d %9d %7d %8d %9.2f %9.2f %9.2f %9.2f %9.2f%n",
                t.type().displayName(), t.completed(), t.rolledBack(), t.failed(), t.retries(), l.p50(), l.p90(),
                l.p95(), l.p99(), l.max()));
        }
        out.append(String.format("%nretries by code: %s%n", r.retries().isEmpty() ? "none" : r.retries()));
        if (r.errors().isEmpty()) {
            out.append("errors: none\n");
        } else {
            out.append("errors by code:\n");
            for (ErrorStat e : r.errors()) {
                out.append(String.format("  %-10s %8d  (SQLSTATE %s) first: %s%n", e.code(), e.count(), e.sqlState(),
                    e.firstMessage()));
            }
        }
        out.append("reconnects: ").append(r.reconnects()).append('\n');
        return out.toString();
    }

    static String abbreviation(TransactionType type) {
        return switch (type) {
            case NEW_ORDER -> "NO";
            case PAYMENT -> "P";
            case ORDER_STATUS -> "OS";
            case DELIVERY -> "D";
            case STOCK_LEVEL -> "SL";
        };
    }
}
