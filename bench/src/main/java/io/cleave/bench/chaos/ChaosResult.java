package io.cleave.bench.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * A soak run as it went: its options (seed included), every fault with its outcome, every check
 * round, what the clients got done, the errors they got by code and by the fault that ran last
 * before each, the CPU other processes used, and whether every check held (else the first failure).
 *
 * @param workload        counts by name (transfers acknowledged, upserts, TPC-C transactions, reads)
 * @param errorsByFault   "fault-kind code" (or "none code" when no fault ran in the 10 s before) -> count
 */
public record ChaosResult(ChaosOptions options, String started, double elapsedSeconds, String server,
                          List<FaultEvent> faults, List<CheckRound> rounds, Map<String, Long> workload,
                          Map<String, Long> errorsByCode, Map<String, Long> errorsByFault, double othersCpuPercent,
                          double oursCpuPercent, String loadBefore, String loadAfter, boolean passed, String failure) {
    public static final String FILE = "results.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public ChaosResult {
        faults = List.copyOf(faults);
        rounds = List.copyOf(rounds);
        workload = Map.copyOf(workload);
        errorsByCode = Map.copyOf(errorsByCode);
        errorsByFault = Map.copyOf(errorsByFault);
    }

    public long injected(FaultKind kind) {
        return faults.stream().filter(f -> f.kind() == kind && f.outcome() == FaultEvent.Outcome.INJECTED).count();
    }

    public long refused(FaultKind kind) {
        return faults.stream().filter(f -> f.kind() == kind && f.outcome() == FaultEvent.Outcome.REFUSED).count();
    }

    public long injected() {
        return faults.stream().filter(f -> f.outcome() == FaultEvent.Outcome.INJECTED).count();
    }

    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        JSON.writeValue(dir.resolve(FILE).toFile(), this);
    }

    public static ChaosResult read(Path dir) throws IOException {
        return JSON.readValue(dir.resolve(FILE).toFile(), ChaosResult.class);
    }
}
