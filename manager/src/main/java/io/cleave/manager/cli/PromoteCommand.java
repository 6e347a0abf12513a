package io.cleave.manager.cli;

import io.cleave.manager.standby.PromotionReport;
import io.cleave.manager.standby.ShardPromotion;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** {@code cleave promote --home B}: the standby B becomes the primary once its primary host is gone. */
@Command(name = "promote", mixinStandardHelpOptions = true,
        description = {"Makes a standby the primary when its primary host is gone (or fenced by you): every replica"
                + " applies what it received and becomes writable, the XA transactions left prepared are settled by"
                + " the replicated decisions, the epoch is bumped, and this home's proxy serves clients.",
                "It does not fence the old primary: make sure it is down and stays down. On a pair coordinated"
                        + " through etcd (a coordination section) the standby takes over by itself, the old primary"
                        + " fences itself, and this is refused while the primary's lease lives."})
public final class PromoteCommand implements Callable<Integer> {

    @Mixin
    HomeOptions options;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        PromotionReport r = options.daemon().promote();
        PrintWriter out = spec.commandLine().getOut();
        for (ShardPromotion s : r.shards()) {
            out.printf("shard %d: applied up to GTID %s; %d XA branch(es) prepared%n", s.shard(),
                    s.gtid().isEmpty() ? "(none)" : s.gtid(), s.prepared());
        }
        out.printf("shard map: %s%n", r.shardMap());
        out.printf("promoted to primary at epoch %d in %.2f s; proxy: %s%n", r.epoch(), r.millis() / 1000.0, r.proxy());
        if (r.stillPrepared() < 0) {
            out.println("the proxy does not run, so the prepared XA branches are not settled yet: see the daemon log");
        } else if (r.stillPrepared() > 0) {
            out.printf("%d XA branch(es) still prepared: 'cleave xa list' shows them%n", r.stillPrepared());
        }
        out.flush();
        return r.stillPrepared() == 0 ? ExitCodes.OK : ExitCodes.NOT_READY;
    }
}
