package io.cleave.manager.scale;

import io.cleave.manager.daemon.ShardEndpoint;
import io.cleave.manager.instance.HostPlan;
import io.cleave.manager.instance.InstancePlan;

import java.util.List;

/** The daemon's shard instances as a scale changes them. */
public interface Instances {

    /**
     * The plan of the home with {@code shards} shards (the planner's, with its refusals).
     *
     * @throws io.cleave.manager.instance.PlanRefusedException when it cannot work on this host
     */
    HostPlan plan(int shards);

    /** Writes the shard's my.cnf, initializes its datadir, supervises it; returns once it answers queries. */
    ShardEndpoint start(InstancePlan plan) throws InterruptedException;

    /** Writes a running shard's my.cnf for its new plan (the server reads it at its next start). */
    void rewrite(InstancePlan plan);

    /** Stops the shard's server and supervising it; its datadir stays. */
    void stop(int index) throws InterruptedException;

    /** The shard's buffer pool was resized online to {@code bytes}. */
    void resized(int index, long bytes);

    /** Indexes of the shards supervised now. */
    List<Integer> supervised();

    /**
     * Deletes what shards {@code keep} and above left (datadirs, log dirs, my.cnf, logs) once a scale
     * stopped them; returns what was deleted.
     *
     * @throws IllegalStateException when a server still runs for one of them
     */
    List<java.nio.file.Path> purge(int keep);
}
