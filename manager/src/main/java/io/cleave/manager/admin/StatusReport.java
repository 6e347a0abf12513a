package io.cleave.manager.admin;

import io.cleave.manager.supervisor.InstanceStatus;

import java.util.List;

/** What GET /v1/status returns and {@code cleave status} prints. */
public record StatusReport(long daemonPid, String home, String startedAt, String serverBinary, boolean ready,
                           String proxy, List<InstanceStatus> instances) {
}
