package io.cleave.bench.compare;

import io.cleave.bench.home.BenchHome;
import java.time.Duration;

/** A client load that runs for a given time against a home, reached as a configuration says. */
public interface Workload {

    /** Its name in tables and file names, e.g. tpcc or oltp_point_select. */
    String name();

    /** The unit of {@link WorkloadResult#throughput()}, e.g. tpmC or tps. */
    String unit();

    WorkloadResult run(BenchHome home, Configuration c, Duration time, String label) throws Exception;
}
