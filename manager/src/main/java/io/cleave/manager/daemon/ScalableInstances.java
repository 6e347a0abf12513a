package io.cleave.manager.daemon;

import io.cleave.manager.instance.HostPlan;
import io.cleave.manager.instance.InstancePlan;
import io.cleave.manager.instance.ServerBinary;
import io.cleave.manager.scale.Instances;
import io.cleave.manager.supervisor.InstanceState;
import io.cleave.manager.supervisor.InstanceSupervisor;
import io.cleave.manager.supervisor.ProcessInspector;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/** The daemon's instances as a scale changes them: planned, prepared, supervised, stopped. */
final class ScalableInstances implements Instances {

    /** A planner with the config as it is now (the pair's options change with its role and semi-sync). */
    private final java.util.function.Supplier<HomePlanner> planner;
    private final Provisioner provisioner;
    private final ServerBinary binary;
    private final Supervisors supervisors;
    private final Function<InstancePlan, InstanceSupervisor> supervise;
    private final Function<InstancePlan, ShardEndpoint> endpoint;
    private final Duration startTimeout;
    private final Duration stopTimeout;
    /** Gives a started shard the accounts the others hold. */
    private final java.util.function.Consumer<InstancePlan> accounts;

    ScalableInstances(java.util.function.Supplier<HomePlanner> planner, Provisioner provisioner, ServerBinary binary, Supervisors supervisors,
                      Function<InstancePlan, InstanceSupervisor> supervise, Function<InstancePlan, ShardEndpoint> endpoint,
                      Duration startTimeout, Duration stopTimeout, java.util.function.Consumer<InstancePlan> accounts) {
        this.accounts = accounts;
        this.planner = planner;
        this.provisioner = provisioner;
        this.binary = binary;
        this.supervisors = supervisors;
        this.supervise = supervise;
        this.endpoint = endpoint;
        this.startTimeout = startTimeout;
        this.stopTimeout = stopTimeout;
    }

    @Override
    public HostPlan plan(int shards) {
        return planner.get().plan(shards);
    }

    @Override
    public ShardEndpoint start(InstancePlan plan) throws InterruptedException {
        InstanceSupervisor s = supervisors.byIndex(plan.index());
        if (s == null) {
            provisioner.prepareInstance(plan, binary);
            s = supervise.apply(plan);
            supervisors.add(s);
            s.start();
        }
        long deadline = System.nanoTime() + startTimeout.toNanos();
        while (s.state() != InstanceState.RUNNING) {
            if (s.state() == InstanceState.CRASH_LOOP || System.nanoTime() > deadline) {
                throw new IllegalStateException(plan.name() + " did not start (" + s.state() + "): "
                        + s.status().lastError());
            }
            TimeUnit.MILLISECONDS.sleep(50);
        }
        accounts.accept(plan);
        return endpoint.apply(plan);
    }

    @Override
    public void rewrite(InstancePlan plan) {
        Provisioner.writeCnf(plan, binary);
    }

    @Override
    public void stop(int index) throws InterruptedException {
        InstanceSupervisor s = supervisors.byIndex(index);
        if (s != null) {
            s.stop(stopTimeout).join();
            supervisors.remove(s);
            return;
        }
        // A daemon that died while shrinking left the server running unsupervised.
        Optional<ProcessHandle> orphan = ProcessInspector.findServerFor(planner.get().home().etc().resolve(InstancePlan.nameOf(index) + ".cnf"));
        if (orphan.isPresent()) {
            ProcessHandle p = orphan.get();
            p.destroy();
            try {
                p.onExit().get(stopTimeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                p.destroyForcibly();
            }
        }
    }

    @Override
    public void resized(int index, long bytes) {
        InstanceSupervisor s = supervisors.byIndex(index);
        if (s != null) {
            s.resized(bytes);
        }
    }

    @Override
    public List<java.nio.file.Path> purge(int keep) {
        int highest = -1;
        try (java.util.stream.Stream<java.nio.file.Path> cnfs = java.nio.file.Files.list(planner.get().home().etc())) {
            for (java.nio.file.Path f : cnfs.toList()) {
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("shard-(\\d+)\\.cnf").matcher(f.getFileName().toString());
                if (m.matches()) {
                    highest = Math.max(highest, Integer.parseInt(m.group(1)));
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        List<java.nio.file.Path> deleted = new java.util.ArrayList<>();
        if (highest < keep) {
            return deleted;
        }
        List<InstancePlan> plans = planner.get().plan(highest + 1).instances();
        for (InstancePlan p : plans.subList(keep, plans.size())) {
            if (supervisors.byIndex(p.index()) != null || ProcessInspector.findServerFor(p.cnf()).isPresent()) {
                throw new IllegalStateException(p.name() + " still runs: only shards a scale stopped are purged");
            }
        }
        for (InstancePlan p : plans.subList(keep, plans.size())) {
            for (java.nio.file.Path path : List.of(p.datadir(), p.logDir(), p.cnf(), p.errorLog(), p.consoleLog())) {
                if (java.nio.file.Files.exists(path)) {
                    try {
                        io.cleave.manager.instance.EmbeddedServer.deleteTree(path);
                    } catch (java.io.IOException e) {
                        throw new java.io.UncheckedIOException("cannot delete " + path + ": " + e.getMessage(), e);
                    }
                    deleted.add(path);
                }
            }
        }
        return deleted;
    }

    @Override
    public List<Integer> supervised() {
        return supervisors.all().stream().map(s -> s.plan().index()).toList();
    }
}
