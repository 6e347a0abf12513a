package io.cleave.manager.cli;

import io.cleave.manager.coordination.CoordinationReport;
import io.cleave.manager.coordination.PairState;
import io.cleave.manager.coordination.PrimaryClaim;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** How {@code cleave status} shows the pair's coordination: who is primary, the epoch, this daemon's lease. */
class CoordinationOutputTest {

    private static final List<String> ETCD = List.of("http://e1:2379", "http://e2:2379");

    private static String printed(CoordinationReport report) {
        StringWriter s = new StringWriter();
        try (PrintWriter out = new PrintWriter(s)) {
            StatusCommand.printCoordination(report, out);
        }
        return s.toString().replace(System.lineSeparator(), "\n");
    }

    @Test
    void thePrimaryShowsItsLease() {
        assertThat(printed(new CoordinationReport(PairState.PRIMARY, 1, new PrimaryClaim("a", "http://127.0.0.1:6034", 1),
                true, 2200, null, "orders", ETCD, null))).isEqualTo("""

                coordination: etcd http://e1:2379,http://e2:2379, cluster orders: this home is PRIMARY; epoch 1; primary:\
                 http://127.0.0.1:6034 (a, epoch 1); holds the lease (2200 ms left before it fences)
                """);
    }

    @Test
    void aFencedHomeSaysWhy() {
        assertThat(printed(new CoordinationReport(PairState.SUPERSEDED, 2, new PrimaryClaim("b", "http://b:6134", 2),
                false, 0, "this home was the primary at epoch 1; the primary is now http://b:6134 (b, epoch 2)",
                "orders", ETCD, null)))
                .contains("this home is SUPERSEDED; epoch 2; primary: http://b:6134 (b, epoch 2); holds no lease\n"
                        + "  this home was the primary at epoch 1");
    }

    @Test
    void aFenceWhoseReadOnlyHasNotTakenSaysSo() {
        assertThat(printed(new CoordinationReport(PairState.FENCED, 1, null, false, 0, "could not renew the lease",
                "orders", ETCD, "read_only ON not set yet on shard 1 (timeout): trying again")))
                .contains("  could not renew the lease\n  read_only ON not set yet on shard 1 (timeout): trying again\n");
    }

    @Test
    void withoutCoordinationNothingIsPrinted() {
        assertThat(printed(null)).isEmpty();
    }
}
