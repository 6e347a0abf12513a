package io.cleave.bench.compare;

import io.cleave.bench.home.BenchHome;
import io.cleave.bench.home.Layout;
import java.util.List;

/** The data every home of a comparison holds in full: loaded once per home, checked after the runs. */
public interface Dataset {

    /** How the home's config places the tables. */
    Layout layout();

    /** Creates and fills the tables on a home that is up. */
    void load(BenchHome home) throws Exception;

    /** Checks the data on a home that is up after the runs; one result per check. */
    List<CheckResult> verify(BenchHome home) throws Exception;

    /** One check's outcome as a line for the report. */
    record CheckResult(String line, boolean passed) {
    }
}
