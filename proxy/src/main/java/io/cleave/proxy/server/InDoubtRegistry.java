package io.cleave.proxy.server;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * XA ids whose distributed commit is running right now, by this proxy or by another one serving
 * the same shards. Recovery leaves their prepared branches alone: their coordinator is alive and
 * will finish them. Another proxy serves the same shards after a standby pair's switchover: the
 * old primary's proxy goes on serving its clients on the new primary's shards, beside that home's
 * own proxy, and neither may settle a branch whose commit the other is running.
 */
public final class InDoubtRegistry {

    private final Set<String> running = ConcurrentHashMap.newKeySet();
    /** Runs of other live proxies on these shards, whose branches are theirs to settle. */
    private final Set<String> otherRuns = ConcurrentHashMap.newKeySet();
    /** When set, only this run's branches are this proxy's (it forwards to another home's shards). */
    private volatile String onlyRun;

    public void started(String xid) {
        running.add(xid);
    }

    public void finished(String xid) {
        running.remove(xid);
    }

    /** Whether a live proxy (this one or another) is running {@code xid}'s commit, or may be. */
    public boolean isRunning(String xid) {
        if (running.contains(xid)) {
            return true;
        }
        String only = onlyRun;
        if (only != null && !ofRun(xid, only)) {
            return true;
        }
        for (String run : otherRuns) {
            if (ofRun(xid, run)) {
                return true;
            }
        }
        return false;
    }

    /** Branches of proxy run {@code runId} belong to another live proxy on these shards. */
    public void otherProxy(String runId) {
        otherRuns.add(runId);
    }

    /** The other proxies on these shards are gone (their home was lost in a failover): their branches are this proxy's. */
    public void forgetOtherProxies() {
        otherRuns.clear();
    }

    /** From now on only branches of {@code runId} (this proxy's run) are this proxy's to settle; null: all but other proxies'. */
    public void onlyRun(String runId) {
        onlyRun = runId;
    }

    /** Cleave's XA ids are {@code cleave:<coordinator>:<run>:<connection>:<sequence>}. */
    static boolean ofRun(String xid, String runId) {
        return xid.startsWith("cleave:") && xid.contains(":" + runId + ":");
    }
}
