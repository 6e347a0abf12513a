package io.cleave.manager.supervisor;

import io.cleave.manager.instance.InstancePlan;
import io.cleave.manager.instance.LogTail;
import io.cleave.manager.instance.ShardAccount;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Keeps one instance in the state the operator wants. Start adopts a server already running for
 * this shard (left by an earlier daemon) or launches one; readiness is the socket, then a real
 * query. An exit while the instance is wanted running is a crash: restart after a backoff, or stop
 * trying after too many crashes (CRASH_LOOP, with the error log's last lines as the reason). A stop
 * first records that the instance is no longer wanted, so its exit is never taken for a crash.
 */
public final class InstanceSupervisor {

    private static final Logger log = LoggerFactory.getLogger(InstanceSupervisor.class);
    private static final long POLL_MILLIS = 100;
    private static final Duration HEALTH_INTERVAL = Duration.ofSeconds(10);
    private static final int REASON_LINES = 20;

    private final InstancePlan plan;
    private final MysqldLauncher launcher;
    private final ReadinessProbe probe;
    private final ShardAccount account;
    private final RestartPolicy policy;
    private final Clock clock;
    private final ScheduledExecutorService scheduler;
    private final InstanceListener listener;
    private final SupervisorMetrics metrics;
    private final CrashTracker crashes;

    // Guarded by this.
    private InstanceState state = InstanceState.STOPPED;
    private boolean wantRunning;
    private boolean released;
    private long generation;
    private MysqldProcess process;
    private boolean adopted;
    private Instant runStarted;
    private int restarts;
    private String lastError;
    private String serverVersion;
    private boolean healthy = true;
    private boolean killedForTimeout;
    private ScheduledFuture<?> pending;
    private ScheduledFuture<?> health;

    public InstanceSupervisor(InstancePlan plan, MysqldLauncher launcher, ReadinessProbe probe, ShardAccount account,
                              RestartPolicy policy, Clock clock, ScheduledExecutorService scheduler,
                              InstanceListener listener, SupervisorMetrics metrics) {
        this.plan = plan;
        this.launcher = launcher;
        this.probe = probe;
        this.account = account;
        this.policy = policy;
        this.clock = clock;
        this.scheduler = scheduler;
        this.listener = listener;
        this.metrics = metrics;
        this.crashes = new CrashTracker(policy, clock);
    }

    public InstancePlan plan() {
        return plan;
    }

    /** Wants the instance running: adopts a live server of this shard, else launches one. Returns at once. */
    public synchronized void start() {
        wantRunning = true;
        released = false;
        crashes.reset();
        long gen = ++generation;
        scheduler.execute(() -> adoptOrLaunch(gen));
    }

    private void adoptOrLaunch(long gen) {
        Optional<ProcessHandle> existing = findRunningServer();
        synchronized (this) {
            if (gen != generation || !wantRunning || released) {
                return;
            }
            if (existing.isPresent()) {
                ProcessHandle handle = existing.get();
                log.info("{}: adopting running server pid {}", plan.name(), handle.pid());
                track(LocalMysqldProcess.adopted(handle), true);
                return;
            }
        }
        launch(gen);
    }

    /** The live server of this shard, if any; stale pid files and sockets are removed. */
    private Optional<ProcessHandle> findRunningServer() {
        Optional<Long> pid = readPidFile();
        if (pid.isPresent()) {
            Optional<ProcessHandle> handle = ProcessHandle.of(pid.get()).filter(ProcessHandle::isAlive);
            if (handle.isPresent() && ProcessInspector.isServerFor(pid.get(), plan.cnf())) {
                return handle;
            }
            log.info("{}: pid file names pid {}, which is {}; removing stale pid file and socket", plan.name(), pid.get(),
                    handle.isPresent() ? "another program (" + ProcessInspector.describe(pid.get()) + ")" : "not running");
        }
        Optional<ProcessHandle> byCommandLine = ProcessInspector.findServerFor(plan.cnf());
        if (byCommandLine.isPresent()) {
            return byCommandLine;
        }
        removeStaleFiles();
        return Optional.empty();
    }

    private void launch(long gen) {
        synchronized (this) {
            if (gen != generation || !wantRunning || released) {
                return;
            }
            boolean provision = !account.isProvisioned(plan.datadir());
            try {
                removeStaleFiles();
                MysqldProcess launched = launcher.launch(plan, provision);
                log.info("{}: started pid {}{}", plan.name(), launched.pid(), provision ? " (provisioning the shard account)" : "");
                track(launched, false);
            } catch (IOException e) {
                lastError = "cannot start " + launcher.binary().mysqld() + ": " + e.getMessage();
                log.error("{}: {}", plan.name(), lastError);
                afterCrash();
            }
        }
    }

    /** Watches a launched or adopted process until it answers queries or exits. Caller holds the lock. */
    private void track(MysqldProcess p, boolean isAdopted) {
        long gen = ++generation;
        process = p;
        adopted = isAdopted;
        runStarted = p.startedAt().orElse(clock.instant());
        serverVersion = null;
        setState(InstanceState.STARTING);
        p.onExit().thenAccept(code -> onExit(gen, p, code));
        Instant deadline = clock.instant().plus(policy.startTimeout());
        Instant startedWaiting = clock.instant();
        pending = scheduler.schedule(() -> pollReady(gen, p, deadline, startedWaiting), 0, TimeUnit.MILLISECONDS);
    }

    private void pollReady(long gen, MysqldProcess p, Instant deadline, Instant startedWaiting) {
        synchronized (this) {
            if (gen != generation || released || !p.isAlive()) {
                return;
            }
        }
        if (Files.exists(plan.socket())) {
            ReadinessProbe.Result result = probe.probe(plan.port());
            metrics.probed(plan.name(), result.latency(), result.ok());
            if (result.ok()) {
                becameReady(gen, p, result, startedWaiting);
                return;
            }
        }
        synchronized (this) {
            if (gen != generation || released) {
                return;
            }
            if (clock.instant().isAfter(deadline)) {
                lastError = "did not answer a query within " + policy.startTimeout().toSeconds() + " s; error log ends:\n"
                        + LogTail.lastLines(plan.errorLog(), REASON_LINES);
                log.error("{}: pid {} did not become ready within {} s; killing it", plan.name(), p.pid(),
                        policy.startTimeout().toSeconds());
                killedForTimeout = true;
                p.kill();
                return;
            }
            pending = scheduler.schedule(() -> pollReady(gen, p, deadline, startedWaiting), POLL_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    private void becameReady(long gen, MysqldProcess p, ReadinessProbe.Result result, Instant startedWaiting) {
        synchronized (this) {
            if (gen != generation || released) {
                return;
            }
            if (!account.isProvisioned(plan.datadir())) {
                account.markProvisioned(plan.datadir());
            }
            serverVersion = result.serverVersion();
            healthy = true;
            log.info("{}: ready, pid {}, {} (waited {} ms)", plan.name(), p.pid(), serverVersion,
                    Duration.between(startedWaiting, clock.instant()).toMillis());
            setState(InstanceState.RUNNING);
            health = scheduler.scheduleWithFixedDelay(() -> checkHealth(gen), HEALTH_INTERVAL.toMillis(),
                    HEALTH_INTERVAL.toMillis(), TimeUnit.MILLISECONDS);
        }
    }

    private void checkHealth(long gen) {
        synchronized (this) {
            if (gen != generation || state != InstanceState.RUNNING) {
                return;
            }
        }
        ReadinessProbe.Result result = probe.probe(plan.port());
        metrics.probed(plan.name(), result.latency(), result.ok());
        synchronized (this) {
            if (result.ok() != healthy) {
                healthy = result.ok();
                if (healthy) {
                    log.info("{}: answers queries again", plan.name());
                } else {
                    log.warn("{}: health probe failed: {}", plan.name(), result.error());
                }
            }
        }
    }

    private void onExit(long gen, MysqldProcess p, OptionalInt code) {
        synchronized (this) {
            if (gen != generation || released) {
                return;
            }
            cancelTimers();
            process = null;
            if (!wantRunning) {
                setState(InstanceState.STOPPED);
                return;
            }
            String how = code.isPresent() ? "exit code " + code.getAsInt() : "an unknown exit code (adopted process)";
            String reason = "pid " + p.pid() + " exited with " + how + "; error log " + plan.errorLog() + " ends:\n"
                    + LogTail.lastLines(plan.errorLog(), REASON_LINES) + "\nconsole output " + plan.consoleLog() + " ends:\n"
                    + LogTail.lastLines(plan.consoleLog(), 5);
            if (!killedForTimeout) {
                lastError = reason;
            }
            killedForTimeout = false;
            log.warn("{}: server pid {} exited unexpectedly with {}", plan.name(), p.pid(), how);
            afterCrash();
        }
    }

    /** Restart after a backoff, or give up. Caller holds the lock. */
    private void afterCrash() {
        Optional<Duration> delay = crashes.onCrash(runStarted);
        if (delay.isEmpty()) {
            log.error("{}: crashed {} times within {} s; not restarting (CRASH_LOOP). Last error:\n{}", plan.name(),
                    crashes.crashesInWindow(), policy.window().toSeconds(), lastError);
            setState(InstanceState.CRASH_LOOP);
            return;
        }
        restarts++;
        long gen = ++generation;
        log.info("{}: restart #{} in {} ms", plan.name(), restarts, delay.get().toMillis());
        setState(InstanceState.BACKOFF);
        pending = scheduler.schedule(() -> launch(gen), delay.get().toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Stops the instance cleanly: SIGTERM, then SIGKILL (with a warning) if it has not exited within
     * {@code timeout}. The instance is marked unwanted first, so its exit is not a crash.
     */
    public CompletableFuture<Void> stop(Duration timeout) {
        MysqldProcess p;
        synchronized (this) {
            wantRunning = false;
            generation++;
            cancelTimers();
            p = process;
            if (p == null || !p.isAlive()) {
                process = null;
                setState(InstanceState.STOPPED);
                return CompletableFuture.completedFuture(null);
            }
            setState(InstanceState.STOPPING);
        }
        return CompletableFuture.runAsync(() -> {
            log.info("{}: stopping pid {}", plan.name(), p.pid());
            p.terminate();
            if (!awaitExit(p, timeout)) {
                log.warn("{}: pid {} did not shut down within {} s; killing it", plan.name(), p.pid(), timeout.toSeconds());
                p.kill();
                awaitExit(p, Duration.ofSeconds(30));
            }
            synchronized (this) {
                if (process == p) {
                    process = null;
                }
                if (!wantRunning) {
                    removeStaleFiles();
                    setState(InstanceState.STOPPED);
                }
            }
            log.info("{}: stopped", plan.name());
        });
    }

    /** Stops supervising without touching the server, which a later daemon adopts. */
    public synchronized void release() {
        released = true;
        generation++;
        cancelTimers();
    }

    /** The buffer pool was resized online (a scale): status shows the new size until the plan says it too. */
    public synchronized void resized(long bytes) {
        resizedBufferPool = bytes;
    }

    private long resizedBufferPool;

    public synchronized InstanceStatus status() {
        Instant now = clock.instant();
        long uptime = state == InstanceState.RUNNING && runStarted != null ? Duration.between(runStarted, now).toSeconds() : 0;
        return new InstanceStatus(plan.index(), plan.name(), state, process == null ? null : process.pid(),
                plan.socket().toString(), plan.port(), state == InstanceState.RUNNING && runStarted != null ? runStarted.toString() : null, uptime, restarts,
                resizedBufferPool > 0 ? resizedBufferPool : plan.bufferPoolBytes(), plan.datadir().toString(), serverVersion,
                adopted && process != null, lastError);
    }

    public synchronized InstanceState state() {
        return state;
    }

    /** The server process, while there is one. */
    public synchronized Optional<MysqldProcess> process() {
        return Optional.ofNullable(process);
    }

    private void setState(InstanceState next) {
        InstanceState previous = state;
        state = next;
        if (previous != next) {
            InstanceStatus snapshot = status();
            try {
                listener.stateChanged(snapshot, previous);
            } catch (RuntimeException e) {
                log.warn("{}: state listener failed", plan.name(), e);
            }
        }
    }

    private void cancelTimers() {
        if (pending != null) {
            pending.cancel(false);
            pending = null;
        }
        if (health != null) {
            health.cancel(false);
            health = null;
        }
    }

    private Optional<Long> readPidFile() {
        try {
            if (!Files.isRegularFile(plan.pidFile())) {
                return Optional.empty();
            }
            String text = Files.readString(plan.pidFile()).trim();
            return text.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(text));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private void removeStaleFiles() {
        for (Path p : List.of(plan.pidFile(), plan.socket(), Path.of(plan.socket() + ".lock"))) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                log.warn("{}: cannot remove stale {}: {}", plan.name(), p, e.getMessage());
            }
        }
    }

    private static boolean awaitExit(MysqldProcess p, Duration timeout) {
        try {
            p.onExit().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (ExecutionException e) {
            return !p.isAlive();
        }
    }
}
