package io.cleave.proxy.accounts;

/**
 * An account or role as the grant tables name it: {@code 'user'@'host'}, a role with the empty
 * host. User names compare exactly, host names case-insensitively, as the server compares them.
 */
public record AccountName(String user, String host) {

    public AccountName {
        host = host.toLowerCase(java.util.Locale.ROOT);
    }

    public static AccountName role(String name) {
        return new AccountName(name, "");
    }

    public boolean isRole() {
        return host.isEmpty();
    }

    /** {@code 'user'@'host'} (a role: {@code 'user'}) as SQL takes it. */
    public String sql() {
        return isRole() ? quote(user) : quote(user) + "@" + quote(host);
    }

    /** {@code 'user'@'host'}, as error messages show it. */
    @Override
    public String toString() {
        return "'" + user + "'@'" + host + "'";
    }

    static String quote(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "''") + "'";
    }
}
