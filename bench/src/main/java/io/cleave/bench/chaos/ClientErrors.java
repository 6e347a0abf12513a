package io.cleave.bench.chaos;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Errors the clients got, by workload and code, with when each came, so the report can set them
 * against the faults that ran then (a kill explains a lost connection; a move must explain none).
 */
public final class ClientErrors {
    private static final int KEPT = 200_000;
    /**
     * Codes no client of the soak gets from one server whatever the faults: a statement applied twice
     * (duplicate key: every id the clients insert is new), SQL the server does not know (syntax, table,
     * column), a refusal or an internal error of the proxy. A kill explains a lost connection, never these.
     */
    private static final java.util.Set<String> NEVER = java.util.Set.of("1062", "1064", "1054", "1146", "1235", "1105",
        "1047");

    /** One error a client got. */
    public record ClientError(long atMillis, String workload, String code, String message) {
    }

    private final Map<String, Long> byCode = new TreeMap<>();
    private final List<ClientError> errors = new ArrayList<>();

    public void add(long atMillis, String workload, SQLException e) {
        String code = e.getErrorCode() != 0 ? Integer.toString(e.getErrorCode())
            : e.getSQLState() == null ? "unknown" : "SQLSTATE " + e.getSQLState();
        String message = e.getMessage() == null ? "" : e.getMessage().replaceAll("\\s+", " ").trim();
        add(new ClientError(atMillis, workload, code, message.length() > 200 ? message.substring(0, 200) : message));
    }

    public synchronized void add(ClientError error) {
        byCode.merge(error.workload() + " " + error.code(), 1L, Long::sum);
        if (errors.size() < KEPT) {
            errors.add(error);
        }
    }

    /** The errors of codes no client of the soak should get (the first ones, with when and where). */
    public synchronized List<String> neverExpected() {
        List<String> out = new ArrayList<>();
        for (ClientError e : errors) {
            if (NEVER.contains(e.code())) {
                out.add(String.format(java.util.Locale.ROOT, "at %.1f s %s got %s: %s", e.atMillis() / 1000.0, e.workload(),
                    e.code(), e.message()));
            }
        }
        return out;
    }

    /** Counts by "workload code". */
    public synchronized Map<String, Long> byCode() {
        return new TreeMap<>(byCode);
    }

    /** The errors (the first 200,000), in the order they came. */
    public synchronized List<ClientError> all() {
        return List.copyOf(errors);
    }

    public synchronized long total() {
        return byCode.values().stream().mapToLong(Long::longValue).sum();
    }
}
