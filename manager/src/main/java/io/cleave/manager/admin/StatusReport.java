package io.cleave.manager.admin;

import io.cleave.manager.supervisor.InstanceStatus;
import io.cleave.proxy.deadlock.DeadlockReport;
import io.cleave.proxy.server.XaRecovery;

import java.util.List;

/**
 * What GET /v1/status returns and {@code cleave status} prints.
 *
 * @param inDoubt prepared XA branches of unfinished cross-shard commits; null when the proxy does
 *                not run (then nobody can tell)
 * @param latestDeadlock the last deadlock across shards the proxy broke since it started; null if none
 * @param shardsNote why the home runs another shard count than its config gives (after a scale); null otherwise
 * @param schemaDrift where the shards' schemas differ (objects, and structure changes not applied everywhere),
 *                    empty when they are alike; null when they could not be compared (a shard is down)
 * @param standby the standby pair this home is part of, its replication per shard; null without one
 * @param coordination who is the pair's primary in etcd, the epoch, this daemon's lease; null without etcd
 * @param refusedDatabases databases the proxy refuses by name, with why (an import a promotion cut short); empty
 *                         nearly always
 * @param heldTables the tables of refused databases set aside on the shards (out of reach of views and routines of
 *                   other databases), by database; empty when none is refused, null when they could not be read
 */
public record StatusReport(long daemonPid, String home, String startedAt, String serverBinary, boolean ready,
                           String proxy, List<InstanceStatus> instances, List<XaRecovery.InDoubtBranch> inDoubt,
                           DeadlockReport latestDeadlock, String shardsNote, List<String> schemaDrift,
                           io.cleave.manager.standby.StandbyReport standby,
                           io.cleave.manager.coordination.CoordinationReport coordination,
                           java.util.Map<String, String> refusedDatabases,
                           java.util.Map<String, List<String>> heldTables) {
}
