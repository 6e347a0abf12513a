package io.cleave.proxy.auth;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Consecutive failed logins per client host, and when that host's next attempt may be checked
 * (see {@link FailedLoginPolicy}). The wait comes before the password is checked, so a guess
 * cannot learn its outcome early by giving up on slow answers. A successful login forgets the
 * host. Shared by every event loop: logins are rare next to statements, so one lock is enough.
 * Bounded: past {@link #MAX_HOSTS} hosts, the one that failed longest ago is forgotten.
 */
public final class FailedLogins {

    /** Hosts remembered at most (a few hundred KB). */
    static final int MAX_HOSTS = 10_000;

    /** An attempt that would wait longer than the policy allows: refused at once. */
    public static final long REFUSED = -1;

    private static final class Host {
        int failures;
        /** When the last delayed attempt of this host was let through (System.nanoTime), if any. */
        long lastSlot;
        boolean slotted;
    }

    private final FailedLoginPolicy policy;
    private final Map<String, Host> hosts = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Host> eldest) {
            return size() > MAX_HOSTS;
        }
    };

    public FailedLogins(FailedLoginPolicy policy) {
        this.policy = policy;
    }

    /**
     * Books the next login attempt of {@code host}: how many nanoseconds it waits before its
     * credentials are checked (0: none), or {@link #REFUSED}.
     */
    public synchronized long admit(String host, long nowNanos) {
        Host h = hosts.get(host);
        long wait = h == null ? 0 : policy.delayNanos(h.failures);
        if (wait == 0) {
            return 0;
        }
        long slot = nowNanos + wait;
        if (h.slotted && slot - (h.lastSlot + policy.delay().toNanos()) < 0) {
            slot = h.lastSlot + policy.delay().toNanos();
        }
        if (slot - nowNanos > policy.maxDelay().toNanos()) {
            return REFUSED;
        }
        h.lastSlot = slot;
        h.slotted = true;
        return slot - nowNanos;
    }

    public synchronized void failed(String host) {
        if (policy.enabled()) {
            hosts.computeIfAbsent(host, k -> new Host()).failures++;
        }
    }

    public synchronized void succeeded(String host) {
        hosts.remove(host);
    }

    /** The message of a refused attempt (error 1129, as a server answers a blocked host). */
    public String refusal(String host) {
        return "Host '" + host + "' is blocked because of " + failures(host) + " failed logins in a row: try again in "
                + policy.maxDelay().toSeconds() + " s";
    }

    /** Consecutive failures recorded for {@code host}. */
    public synchronized int failures(String host) {
        Host h = hosts.get(host);
        return h == null ? 0 : h.failures;
    }

    public FailedLoginPolicy policy() {
        return policy;
    }
}
