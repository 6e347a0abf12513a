package io.cleave.proxy.backend;

import io.cleave.proxy.protocol.Capabilities;

/**
 * Who a backend connection is logged in as and how it reaches its shard, which is what backend
 * pools keep connections apart by (with the response profile of the clients it serves): the shard
 * account of the proxy's own work, or a client's account, so that the shard checks every statement
 * against that account's privileges. Made once per account, route and profile (see
 * {@link ShardLogins}); a session looks its own up once, at login, so borrowing a connection costs
 * an array index.
 *
 * <p>A client that reaches the proxy over TCP may have an account whose host pattern the proxy's
 * own address (the shard's Unix socket) would not match the same way: its connections go over TCP
 * with a PROXY protocol header carrying a client address that matched the account, so the shard
 * picks the same account the proxy did.
 */
public final class ShardLogin {

    /** The shard account with the neutral profile: the proxy's own control work (every registry's slot 0). */
    public static final ShardLogin SHARD_ACCOUNT = new ShardLogin(0, null, null, false, 0, null);

    private final int slot;
    private final String user;
    private final String account;
    private final boolean proxied;
    private final int profile;
    private volatile ShardCredential credential;
    private volatile String clientIp;
    private volatile String defaultRole = "";

    ShardLogin(int slot, String user, String account, boolean proxied, int profile, ShardCredential credential) {
        this.slot = slot;
        this.user = user;
        this.account = account;
        this.proxied = proxied;
        this.profile = profile;
        this.credential = credential;
    }

    /** Its index among the runtime's logins: pools keep idle connections in an array by it. */
    public int slot() {
        return slot;
    }

    /** The user name to log in as; null for the shard account (the endpoint's own). */
    public String user() {
        return user;
    }

    /** {@code 'user'@'host'} of a client's account, for messages; null for the shard account. */
    public String account() {
        return account;
    }

    public boolean isShardAccount() {
        return user == null;
    }

    /** Connections go over TCP with a PROXY header naming {@link #clientIp()}. */
    public boolean proxied() {
        return proxied;
    }

    /** The capability flags that shape responses for the clients served (see {@link Capabilities#responseProfile()}). */
    public int profile() {
        return profile;
    }

    public ShardCredential credential() {
        return credential;
    }

    /**
     * The user name to send {@code shard}: the client's account's on a shard, the endpoint's own on
     * a server attached for an import (which holds its own accounts, not the shards').
     */
    String userAt(ShardEndpoint shard) {
        return user == null || shard.attached() ? shard.user() : user;
    }

    /** What to answer {@code shard}'s authentication with (see {@link #userAt}). */
    ShardCredential credentialAt(ShardEndpoint shard) {
        return user == null || shard.attached() ? new ShardCredential.Password(shard.password()) : credential;
    }

    /** Whether connections to {@code shard} go by the client's address (never to an attached server). */
    boolean proxiedTo(ShardEndpoint shard) {
        return proxied && !shard.attached();
    }

    public String clientIp() {
        return clientIp;
    }

    /** A client logged in as the account just now: later connections answer with its credential and address. */
    public void refresh(ShardCredential latest, String ip) {
        this.credential = latest;
        this.clientIp = ip;
    }

    /** The role a login of the account starts with (the empty string: none). */
    public String defaultRole() {
        return defaultRole;
    }

    public void defaultRole(String role) {
        this.defaultRole = role == null ? "" : role;
    }

    /** The account's password was changed through the proxy: later connections log in with the new one. */
    public void refresh(ShardCredential latest) {
        this.credential = latest;
    }

    @Override
    public String toString() {
        return (user == null ? "shard account" : account) + (proxied ? " via PROXY" : "") + " profile 0x"
                + Integer.toHexString(profile);
    }
}
