package io.cleave.e2e.standby;

import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.daemon.CleaveProxyService;
import io.cleave.manager.daemon.Daemon;
import io.cleave.manager.daemon.DaemonOptions;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.standby.ShardReplication;
import io.cleave.manager.standby.StandbySeed;

import java.util.concurrent.TimeUnit;

import static io.cleave.e2e.standby.StandbyIT.await;
import static org.assertj.core.api.Assertions.assertThat;

/** A seeded standby's daemon in this JVM, started and in step with its primary. */
final class SeededStandby {

    private SeededStandby() {
    }

    /**
     * Starts the standby's daemon and waits until every replica runs and the primary at {@code url} waits for
     * its acknowledgements (semi-sync) on every shard.
     */
    static Daemon start(StandbySeed.Result seeded, String url, String token) throws Exception {
        Daemon standby = new Daemon(DaemonOptions.standard(new CleaveHome(seeded.home()), seeded.config(), System.getenv())
                .withProxy(CleaveProxyService.FACTORY));
        try {
            standby.start();
            await(standby, r -> r.shards().size() == 2 && r.shards().stream().allMatch(ShardReplication::replicating),
                    "every replica runs");
            AdminClient primaryAdmin = AdminClient.remote(url, token);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!primaryAdmin.standby().semiSync()
                    || !primaryAdmin.standby().shards().stream().allMatch(s -> s.semiSyncClients() == 1)) {
                assertThat(System.nanoTime()).as("the primary waits for the standby within a minute").isLessThan(deadline);
                Thread.sleep(100);
            }
            return standby;
        } catch (Exception | AssertionError e) {
            standby.close();
            throw e;
        }
    }
}
