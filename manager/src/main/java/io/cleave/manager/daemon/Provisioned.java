package io.cleave.manager.daemon;

import io.cleave.manager.instance.HostPlan;
import io.cleave.manager.instance.InstancePlan;
import io.cleave.manager.instance.ServerBinary;
import io.cleave.manager.instance.ShardAccount;
import io.cleave.router.shardmap.ShardMapHolder;

import java.nio.file.Path;
import java.util.List;

/** A home made ready to run: binary chosen, instances planned, my.cnf files rendered, datadirs initialized, secrets in place. */
public record Provisioned(ServerBinary binary, List<InstancePlan> plans, ShardAccount account, String adminToken,
                          ShardMapHolder shardMaps, Path accountInitFile, HostPlan hostPlan) {
}
