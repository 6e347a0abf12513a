package io.cleave.proxy.server;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * XA ids whose distributed commit this proxy is running right now. Recovery leaves their prepared
 * branches alone: their coordinator is alive and will finish them.
 */
public final class InDoubtRegistry {

    private final Set<String> running = ConcurrentHashMap.newKeySet();

    public void started(String xid) {
        running.add(xid);
    }

    public void finished(String xid) {
        running.remove(xid);
    }

    public boolean isRunning(String xid) {
        return running.contains(xid);
    }
}
