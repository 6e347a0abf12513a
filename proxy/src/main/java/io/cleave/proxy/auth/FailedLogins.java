package io.cleave.proxy.auth;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Consecutive failed logins per account and client host ('user'@'host', as MySQL's
 * connection_control counts them), and when the next attempt for it may be checked (see
 * {@link FailedLoginPolicy}). The wait comes before the password is checked, so a guess cannot
 * learn its outcome early by giving up on slow answers. A successful login forgets its
 * 'user'@'host' only: logging in as one's own account does not reset the count of guesses at
 * another. Shared by every event loop: logins are rare next to statements, so one lock is enough.
 * Bounded: past {@link #MAX_ENTRIES}, the entry that failed longest ago is forgotten.
 */
public final class FailedLogins {

    /** Entries remembered at most (a few hundred KB). */
    static final int MAX_ENTRIES = 10_000;

    /** An attempt that would wait longer than the policy allows: refused at once. */
    public static final long REFUSED = -1;

    private static final class Entry {
        int failures;
        /** When the last delayed attempt was let through (System.nanoTime), if any. */
        long lastSlot;
        boolean slotted;
    }

    private final FailedLoginPolicy policy;
    private final Map<String, Entry> entries = new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Entry> eldest) {
            return size() > MAX_ENTRIES;
        }
    };

    public FailedLogins(FailedLoginPolicy policy) {
        this.policy = policy;
    }

    /**
     * Books the next login attempt as {@code user} from {@code host}: how many nanoseconds it
     * waits before its credentials are checked (0: none), or {@link #REFUSED}.
     */
    public synchronized long admit(String user, String host, long nowNanos) {
        Entry e = entries.get(key(user, host));
        long wait = e == null ? 0 : policy.delayNanos(e.failures);
        if (wait == 0) {
            return 0;
        }
        long slot = nowNanos + wait;
        if (e.slotted && slot - (e.lastSlot + policy.delay().toNanos()) < 0) {
            slot = e.lastSlot + policy.delay().toNanos();
        }
        if (slot - nowNanos > policy.maxDelay().toNanos()) {
            return REFUSED;
        }
        e.lastSlot = slot;
        e.slotted = true;
        return slot - nowNanos;
    }

    public synchronized void failed(String user, String host) {
        if (policy.enabled()) {
            entries.computeIfAbsent(key(user, host), k -> new Entry()).failures++;
        }
    }

    public synchronized void succeeded(String user, String host) {
        entries.remove(key(user, host));
    }

    /**
     * The message of a refused attempt, as MySQL words an account blocked after failed logins
     * (error 3955).
     */
    public String refusal(String user, String host) {
        return "Access denied for user '" + user + "'@'" + host + "'. Account is blocked for "
                + policy.maxDelay().toSeconds() + " s due to " + failures(user, host) + " consecutive failed logins.";
    }

    /** Consecutive failures recorded for {@code user} from {@code host}. */
    public synchronized int failures(String user, String host) {
        Entry e = entries.get(key(user, host));
        return e == null ? 0 : e.failures;
    }

    private static String key(String user, String host) {
        // NUL cannot occur in a host; a user name is read up to its NUL.
        return user + '\0' + host;
    }
}
