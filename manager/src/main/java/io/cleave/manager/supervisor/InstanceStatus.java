package io.cleave.manager.supervisor;

/** A snapshot of one instance, as the admin API, the CLI and the metrics show it ({@code startedAt} in ISO-8601). */
public record InstanceStatus(int index, String name, InstanceState state, Long pid, String socket, int port,
                             String startedAt, long uptimeSeconds, int restarts, long bufferPoolBytes,
                             String datadir, String serverVersion, boolean adopted, String lastError) {
}
