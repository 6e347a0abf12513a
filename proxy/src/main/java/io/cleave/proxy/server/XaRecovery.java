package io.cleave.proxy.server;

import io.cleave.proxy.metrics.ProxyMetrics;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Settles prepared XA branches left by distributed commits that did not finish (the daemon or a
 * shard died mid-commit). A branch's fate is read, never guessed: its id names the coordinator
 * shard, and the coordinator's {@code cleave.decisions} table has a row for the transaction if and
 * only if its commit decision was committed. A branch whose coordinator cannot be reached stays
 * in doubt until it can; one whose commit this proxy is still running is left alone. Recovery
 * passes and operators' resolutions take turns, so two never settle the same branch at once.
 */
public final class XaRecovery {

    private static final Logger log = LoggerFactory.getLogger(XaRecovery.class);
    private static final String PREFIX = "cleave:";

    /** What should happen to an in-doubt branch. */
    public enum Decision { COMMIT, ROLLBACK, COORDINATOR_UNREACHABLE, COMMIT_RUNNING }

    /** A prepared branch on a shard. */
    public record InDoubtBranch(int shard, String xid, int coordinator, Decision decision) {
    }

    private final ShardAdmin admin;
    private final InDoubtRegistry running;
    private final ProxyMetrics metrics;
    private final BranchListener settled;

    public XaRecovery(ShardAdmin admin, InDoubtRegistry running, ProxyMetrics metrics) {
        this(admin, running, metrics, (shard, xid) -> {
        });
    }

    /** Told which branches are settled: cuts avoid a shard whose branch of a decided transaction is still prepared. */
    public interface BranchListener {

        /** {@code xid}'s branch on {@code shard} was committed or rolled back here. */
        void settled(int shard, String xid);

        /** A scan of the shards' prepared branches starts: the mark to hand {@link #preparedOn}. */
        default long scanning() {
            return 0;
        }

        /** {@code shard} answered the scan marked {@code mark}: {@code xids} were all the branches prepared there. */
        default void preparedOn(int shard, Set<String> xids, long mark) {
        }
    }

    public XaRecovery(ShardAdmin admin, InDoubtRegistry running, ProxyMetrics metrics, BranchListener settled) {
        this.admin = admin;
        this.running = running;
        this.metrics = metrics;
        this.settled = settled;
    }

    /** The prepared branches on every reachable shard, with what their coordinator decided. */
    public List<InDoubtBranch> scan() {
        return scanShards().branches();
    }

    /** Prepared branches found, and whether every shard answered (none may hide one). */
    private record Scan(List<InDoubtBranch> branches, boolean complete) {
    }

    private Scan scanShards() {
        List<InDoubtBranch> out = new ArrayList<>();
        boolean complete = true;
        for (int shard : admin.localShards()) {
            List<ShardAdmin.Row> rows;
            long mark = settled.scanning();
            try {
                rows = admin.query(shard, "XA RECOVER");
            } catch (ShardAdmin.ShardAdminException e) {
                log.debug("XA RECOVER on shard {} failed: {}", shard, e.getMessage());
                complete = false;
                continue;
            }
            Set<String> onShard = new HashSet<>();
            for (ShardAdmin.Row row : rows) {
                String data = row.get(3);
                if (data == null || !data.startsWith(PREFIX)) {
                    continue;
                }
                int gtridLength = Integer.parseInt(row.get(1));
                String xid = data.substring(0, Math.min(gtridLength, data.length()));
                out.add(new InDoubtBranch(shard, xid, coordinatorOf(xid), decide(xid)));
                onShard.add(xid);
            }
            settled.preparedOn(shard, onShard, mark);
        }
        return new Scan(out, complete);
    }

    /** Commits or rolls back every branch whose decision is known; returns how many it settled. */
    public synchronized int recover() {
        int settled = 0;
        int left = 0;
        for (InDoubtBranch b : scanShards().branches()) {
            boolean known = b.decision() == Decision.COMMIT || b.decision() == Decision.ROLLBACK;
            if (known && settle(b.shard(), b.xid(), b.decision() == Decision.COMMIT)) {
                settled++;
                metrics.branchSettled(true, b.decision() == Decision.COMMIT);
                continue;
            }
            left++;
            if (b.decision() == Decision.COORDINATOR_UNREACHABLE) {
                log.warn("transaction {}: branch on shard {} stays prepared until coordinator shard {} is reachable",
                        b.xid(), b.shard(), b.coordinator());
            }
        }
        metrics.inDoubtAfterRecovery(left);
        forgetOldDecisions();
        return settled;
    }

    /**
     * An operator's decision for one transaction on every shard where it is prepared. Refused when
     * it contradicts the coordinator's recorded decision unless {@code force}, and always while
     * this proxy is committing the transaction itself.
     */
    public synchronized InDoubtResolution resolve(String xid, boolean commit, boolean force) {
        List<InDoubtBranch> branches = new ArrayList<>();
        for (InDoubtBranch b : scan()) {
            if (b.xid().equals(xid)) {
                branches.add(b);
            }
        }
        InDoubtResolution refusal = InDoubtResolution.refusal(xid, branches, commit, force);
        if (refusal != null) {
            return refusal;
        }
        boolean forced = InDoubtResolution.againstDecision(branches, commit);
        if (forced) {
            log.warn("operator forces {} of {} against its coordinator's recorded decision", commit ? "commit" : "rollback",
                    xid);
        }
        List<Integer> settled = new ArrayList<>();
        List<Integer> failed = new ArrayList<>();
        for (InDoubtBranch b : branches) {
            if (settle(b.shard(), xid, commit)) {
                settled.add(b.shard());
                metrics.branchSettled(false, commit);
            } else {
                failed.add(b.shard());
            }
        }
        if (failed.isEmpty()) {
            return new InDoubtResolution(xid, commit, InDoubtResolution.Outcome.SETTLED, forced, settled, failed, null);
        }
        return new InDoubtResolution(xid, commit, InDoubtResolution.Outcome.FAILED, forced, settled, failed,
                (commit ? "XA COMMIT" : "XA ROLLBACK") + " of " + xid + " failed on shards " + failed
                        + (settled.isEmpty() ? "" : " (done on shards " + settled + ")") + ": see the daemon log");
    }

    private boolean settle(int shard, String xid, boolean commit) {
        String verb = commit ? "XA COMMIT " : "XA ROLLBACK ";
        try {
            admin.query(shard, verb + quote(xid));
            log.info("{} branch {} on shard {}", commit ? "committed" : "rolled back", xid, shard);
            settled.settled(shard, xid);
            return true;
        } catch (ShardAdmin.ShardAdminException e) {
            log.warn("{} of {} on shard {} failed: {}", verb.trim(), xid, shard, e.getMessage());
            return false;
        }
    }

    private Decision decide(String xid) {
        if (running.isRunning(xid)) {
            return Decision.COMMIT_RUNNING;
        }
        int coordinator = coordinatorOf(xid);
        if (!admin.localShards().contains(coordinator)) {
            return Decision.ROLLBACK;
        }
        try {
            List<ShardAdmin.Row> rows = admin.query(coordinator, "SELECT 1 FROM cleave.decisions WHERE xid = "
                    + quote(xid));
            return rows.isEmpty() ? Decision.ROLLBACK : Decision.COMMIT;
        } catch (ShardAdmin.ShardAdminException e) {
            return Decision.COORDINATOR_UNREACHABLE;
        }
    }

    /**
     * Decision rows whose branches are all settled are no longer needed. Only a scan that reached
     * every shard tells that: a shard that is down may hold a prepared branch whose commit needs
     * its decision row when the shard is back.
     */
    private void forgetOldDecisions() {
        Scan scan = scanShards();
        if (!scan.complete()) {
            return;
        }
        Set<String> stillPrepared = new HashSet<>();
        for (InDoubtBranch b : scan.branches()) {
            stillPrepared.add(b.xid());
        }
        for (int shard : admin.localShards()) {
            try {
                for (ShardAdmin.Row row : admin.query(shard, "SELECT xid FROM cleave.decisions WHERE created < "
                        + "NOW(6) - INTERVAL 1 MINUTE")) {
                    String xid = row.get(0);
                    if (!stillPrepared.contains(xid) && !running.isRunning(xid)) {
                        admin.query(shard, "DELETE FROM cleave.decisions WHERE xid = " + quote(xid));
                    }
                }
            } catch (ShardAdmin.ShardAdminException e) {
                log.debug("cleaning decisions on shard {}: {}", shard, e.getMessage());
            }
        }
    }

    /** Runs {@code work} between recovery passes and resolutions: none runs meanwhile. */
    public synchronized <T> T exclusive(java.util.concurrent.Callable<T> work) throws Exception {
        return work.call();
    }

    /** {@code cleave:<coordinator>:...} */
    static int coordinatorOf(String xid) {
        try {
            int end = xid.indexOf(':', PREFIX.length());
            return Integer.parseInt(xid.substring(PREFIX.length(), end));
        } catch (RuntimeException e) {
            return -1;
        }
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "''") + "'";
    }
}
