package io.cleave.proxy.accounts;

import java.util.HexFormat;

/**
 * One row of the shards' grant tables as a login needs it.
 *
 * @param plugin              the authentication plugin's name as stored
 * @param authString          the stored authentication string ({@code *HEX} for mysql_native_password)
 * @param locked              ACCOUNT LOCK
 * @param passwordChanged     when the password was last set (epoch seconds); 0 for PASSWORD EXPIRE,
 *                            -1 when not recorded (it never expires by age then)
 * @param passwordLifetimeDays the account's PASSWORD EXPIRE INTERVAL; 0 never, -1 the server's default
 * @param maxUserConnections  the account's own limit on simultaneous connections (0: the server's)
 * @param role                a role, which nobody logs in as
 * @param defaultRole         the role a login starts with, or the empty string
 * @param globalPrivileges    the account's own privileges on {@code *.*} as MariaDB's bit set (SELECT 1,
 *                            INSERT 2, UPDATE 4, DELETE 8, ...); a role's are not in it
 */
public record Account(AccountName name, String plugin, String authString, boolean locked, long passwordChanged,
                      long passwordLifetimeDays, long maxUserConnections, boolean role, String defaultRole,
                      long globalPrivileges) {

    /** SELECT, INSERT, UPDATE and DELETE. */
    private static final long READ_AND_WRITE = 15;

    public Account {
        authString = authString == null ? "" : authString;
        defaultRole = defaultRole == null ? "" : defaultRole;
    }

    /** A login account with a mysql_native_password (empty: no password) and nothing else set. */
    public static Account nativePassword(AccountName name, String starHash) {
        return new Account(name, "mysql_native_password", starHash, false, -1, -1, 0, false, "", 0);
    }

    /**
     * Whether the account may read and write every table itself: SELECT, INSERT, UPDATE and DELETE
     * on {@code *.*}, which (MariaDB having no partial revokes) covers Cleave's schema on the shards.
     */
    public boolean readsAndWritesEveryTable() {
        return (globalPrivileges & READ_AND_WRITE) == READ_AND_WRITE;
    }

    public AuthMethod method() {
        return AuthMethod.of(plugin);
    }

    /** The stored SHA1(SHA1(password)) of a mysql_native_password account; empty for no password; null if unreadable. */
    public byte[] nativeHash() {
        if (authString.isEmpty()) {
            return new byte[0];
        }
        if (authString.length() != 41 || authString.charAt(0) != '*') {
            return null;
        }
        try {
            return HexFormat.of().parseHex(authString, 1, 41);
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** Whether the password has expired at {@code nowSeconds}, as the server decides it. */
    public boolean passwordExpired(long nowSeconds, long defaultLifetimeDays) {
        if (passwordChanged == 0) {
            return true;
        }
        long lifetime = passwordLifetimeDays < 0 ? defaultLifetimeDays : passwordLifetimeDays;
        return passwordChanged > 0 && lifetime > 0 && passwordChanged + lifetime * 86_400 < nowSeconds;
    }

    /** How a server ranks this account among those a client's user and host both match (higher first). */
    int rank() {
        return HostPattern.specificity(name.host()) << 8 | HostPattern.specificity(name.user());
    }
}
