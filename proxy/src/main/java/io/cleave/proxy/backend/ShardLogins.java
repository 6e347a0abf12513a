package io.cleave.proxy.backend;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Every {@link ShardLogin} of one proxy, one per account, route and response profile, numbered in
 * order of first use. Also the generation of the grant tables the proxy last saw: an account
 * statement through the proxy starts a new one, and pooled connections of clients' accounts made
 * before it are closed rather than lent again, so the next statement runs on a connection that
 * logged in with the account's privileges as they are now (see {@link BackendPool}).
 */
public final class ShardLogins {

    private final ConcurrentHashMap<String, ShardLogin> logins = new ConcurrentHashMap<>();
    private final AtomicInteger slots = new AtomicInteger(1);
    private volatile int generation;

    public ShardLogins() {
        logins.put(shardAccountKey(0), ShardLogin.SHARD_ACCOUNT);
    }

    /** The shard account (the endpoint's own user and password) for clients of {@code profile}. */
    public ShardLogin shardAccount(int profile) {
        return logins.computeIfAbsent(shardAccountKey(profile),
                k -> new ShardLogin(slots.getAndIncrement(), null, null, false, profile, null));
    }

    private static String shardAccountKey(int profile) {
        return "\0shard\0" + profile;
    }

    /**
     * The login of the account named {@code account} (as 'user'@'host'), logging in as {@code user},
     * over a PROXY header when {@code proxied}, for clients of {@code profile}.
     */
    public ShardLogin account(String user, String account, boolean proxied, int profile) {
        return logins.computeIfAbsent(account + '\0' + proxied + '\0' + profile,
                k -> new ShardLogin(slots.getAndIncrement(), user, account, proxied, profile, ShardCredential.NONE));
    }

    /** Every login of the account named {@code account} ('user'@'host'), whatever its route and profile. */
    public java.util.List<ShardLogin> ofAccount(String account) {
        java.util.List<ShardLogin> out = new java.util.ArrayList<>();
        for (ShardLogin l : logins.values()) {
            if (account.equals(l.account())) {
                out.add(l);
            }
        }
        return out;
    }

    /** Every login made so far. */
    public java.util.Collection<ShardLogin> all() {
        return logins.values();
    }

    /** How many logins exist (pools size their arrays by it). */
    public int count() {
        return slots.get();
    }

    public int generation() {
        return generation;
    }

    /** Accounts or privileges changed: connections of clients' accounts made before are not lent again. */
    public synchronized void accountsChanged() {
        generation++;
    }
}
