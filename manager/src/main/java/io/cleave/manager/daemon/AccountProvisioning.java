package io.cleave.manager.daemon;

import io.cleave.manager.instance.InstancePlan;
import io.cleave.manager.instance.LogTail;
import io.cleave.manager.instance.ShardAccount;
import io.cleave.manager.supervisor.MysqldLauncher;
import io.cleave.manager.supervisor.MysqldProcess;
import io.cleave.manager.supervisor.ProcessInspector;
import io.cleave.manager.supervisor.ReadinessProbe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * For {@code cleave init}: creates the shard account on instances that lack it by starting each
 * once with the account init file, checking the account logs in, and shutting it down again.
 * ({@code cleave up} does the same at the first start of each instance, without the extra round.)
 */
public final class AccountProvisioning {

    private static final Logger log = LoggerFactory.getLogger(AccountProvisioning.class);
    private static final long READY_TIMEOUT_MILLIS = 300_000;

    private AccountProvisioning() {
    }

    public static void provisionStopped(Provisioned provisioned) {
        ShardAccount account = provisioned.account();
        MysqldLauncher launcher = new MysqldLauncher(provisioned.binary(), provisioned.accountInitFile());
        ReadinessProbe probe = new ReadinessProbe(ShardAccount.USER, account.secret());
        List<CompletableFuture<Void>> runs = new ArrayList<>();
        for (InstancePlan plan : provisioned.plans()) {
            if (account.isProvisioned(plan.datadir())) {
                continue;
            }
            if (ProcessInspector.findServerFor(plan.cnf()).isPresent()) {
                log.warn("{}: a server is running for it; its account is made at its next start by 'cleave up'", plan.name());
                continue;
            }
            runs.add(CompletableFuture.runAsync(() -> provisionOne(plan, launcher, probe, account)));
        }
        try {
            CompletableFuture.allOf(runs.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }
    }

    private static void provisionOne(InstancePlan plan, MysqldLauncher launcher, ReadinessProbe probe, ShardAccount account) {
        MysqldProcess process;
        try {
            Files.deleteIfExists(plan.socket());
            Files.deleteIfExists(plan.pidFile());
            process = launcher.launch(plan, true);
        } catch (IOException e) {
            throw new IllegalStateException(plan.name() + ": cannot start the server: " + e.getMessage(), e);
        }
        try {
            long deadline = System.currentTimeMillis() + READY_TIMEOUT_MILLIS;
            ReadinessProbe.Result result = null;
            while (System.currentTimeMillis() < deadline && process.isAlive()) {
                if (Files.exists(plan.socket())) {
                    result = probe.probe(plan.port());
                    if (result.ok()) {
                        break;
                    }
                }
                TimeUnit.MILLISECONDS.sleep(100);
            }
            if (result == null || !result.ok()) {
                throw new IllegalStateException(plan.name() + ": the shard account does not log in ("
                        + (result == null ? "server never opened its socket" : result.error()) + "); error log ends:\n"
                        + LogTail.lastLines(plan.errorLog(), 20));
            }
            account.markProvisioned(plan.datadir());
            log.info("{}: shard account '{}' created", plan.name(), ShardAccount.USER);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            process.terminate();
            try {
                process.onExit().get(120, TimeUnit.SECONDS);
            } catch (Exception e) {
                log.warn("{}: pid {} did not stop in time; killing it", plan.name(), process.pid());
                process.kill();
            }
        }
    }
}
