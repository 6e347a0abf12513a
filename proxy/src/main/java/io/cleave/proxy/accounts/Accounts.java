package io.cleave.proxy.accounts;

import io.cleave.proxy.backend.ShardCredential;
import io.cleave.proxy.backend.ShardLogin;
import io.cleave.proxy.backend.ShardLogins;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The proxy's view of the shards' accounts: the directory logins are checked against (read from a
 * shard at start and again after every account statement through the proxy), the logins backend
 * connections are made with, how many clients each account has connected (its
 * max_user_connections), and the caching_sha2_password passwords full authentications gave.
 * Thread-safe.
 */
public final class Accounts {

    private final String shardAccountUser;
    private final ShardLogins logins = new ShardLogins();
    private final ConcurrentHashMap<AccountName, AtomicLong> connected = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<AccountName, byte[]> sha2Passwords = new ConcurrentHashMap<>();
    private volatile AccountDirectory directory;

    /** @param shardAccountUser the user name of the shard account, which no client may log in as or name */
    public Accounts(String shardAccountUser, AccountDirectory initial) {
        this.shardAccountUser = shardAccountUser;
        this.directory = initial;
    }

    public AccountDirectory directory() {
        return directory;
    }

    /**
     * The grant tables as read again: later logins are checked against them, and backend
     * connections start with the default roles the accounts have now.
     */
    public void directory(AccountDirectory latest) {
        this.directory = latest;
        for (ShardLogin login : logins.all()) {
            if (login.account() != null) {
                for (Account a : latest.accounts()) {
                    if (a.name().toString().equals(login.account())) {
                        login.defaultRole(a.defaultRole());
                    }
                }
            }
        }
    }

    public ShardLogins logins() {
        return logins;
    }

    public String shardAccountUser() {
        return shardAccountUser;
    }

    /** Whether {@code user} is the shard account's name (reserved: no client logs in as it or names it). */
    public boolean isShardAccount(String user) {
        return shardAccountUser.equals(user);
    }

    /**
     * The backend login for a client logged in as {@code account} from {@code client} with
     * {@code credential}: over the shard's Unix socket when the shard would pick the same account
     * for it, else by the client's address (TCP with a PROXY header). Returns null when only the
     * PROXY header would do and the shards' server has none ({@code proxyProtocol} false).
     */
    public ShardLogin loginFor(String user, Account account, ClientAddress client, int profile,
                               ShardCredential credential, boolean proxyProtocol) {
        Account fromSocket = directory.resolve(user, ClientAddress.LOCAL_SOCKET);
        boolean proxied = !client.isLocalSocket() && (fromSocket == null || !fromSocket.name().equals(account.name()));
        if (proxied && !proxyProtocol) {
            return null;
        }
        ShardLogin login = logins.account(user, account.name().toString(), proxied, profile);
        login.refresh(credential, client.ip());
        login.defaultRole(account.defaultRole());
        return login;
    }

    /** Counts one more client of {@code account} in; false when that would pass its connection limit. */
    public boolean admit(Account account) {
        long limit = directory.connectionLimit(account);
        AtomicLong count = connected.computeIfAbsent(account.name(), k -> new AtomicLong());
        while (true) {
            long now = count.get();
            if (limit > 0 && now >= limit) {
                return false;
            }
            if (count.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** A client of {@code account} left (or changed user). */
    public void left(AccountName account) {
        AtomicLong count = connected.get(account);
        if (count != null) {
            count.decrementAndGet();
        }
    }

    /**
     * {@code account}'s password was set in clear text through the proxy: its sessions' later
     * backend connections log in with it (the old one no longer would).
     */
    public void passwordChanged(AccountName account, ShardCredential mysqlNative, byte[] clear) {
        for (ShardLogin login : logins.ofAccount(account.toString())) {
            login.refresh(sha2Passwords.containsKey(account) ? new ShardCredential.Password(clear) : mysqlNative);
        }
        sha2Passwords.computeIfPresent(account, (k, old) -> clear);
    }

    /** The caching_sha2_password password a full authentication of {@code account} gave, or null. */
    public byte[] sha2Password(AccountName account) {
        return sha2Passwords.get(account);
    }

    public void sha2Password(AccountName account, byte[] password) {
        sha2Passwords.put(account, password);
    }
}
