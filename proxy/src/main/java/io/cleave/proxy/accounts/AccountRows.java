package io.cleave.proxy.accounts;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Reads the accounts out of a shard's grant tables: the query, and its rows into an
 * {@link AccountDirectory}. Every shard holds the same accounts (account statements go to all of
 * them), so one shard's answer is the directory. The shard account is left out: nobody logs in
 * to the proxy as it.
 */
public final class AccountRows {

    /** MariaDB 10.4 and later keep an account's settings as JSON in mysql.global_priv. */
    private static final String MARIADB = "SELECT User, Host, IFNULL(JSON_VALUE(Priv, '$.plugin'), ''),"
            + " IFNULL(JSON_VALUE(Priv, '$.authentication_string'), ''),"
            + " IFNULL(JSON_VALUE(Priv, '$.account_locked'), 'false'),"
            + " IFNULL(JSON_VALUE(Priv, '$.password_last_changed'), -1),"
            + " IFNULL(JSON_VALUE(Priv, '$.password_lifetime'), -1),"
            + " IFNULL(JSON_VALUE(Priv, '$.max_user_connections'), 0),"
            + " IFNULL(JSON_VALUE(Priv, '$.is_role'), 'false'),"
            + " IFNULL(JSON_VALUE(Priv, '$.default_role'), ''),"
            + " @@global.max_user_connections, @@global.default_password_lifetime,"
            + " IFNULL(JSON_VALUE(Priv, '$.access'), 0)"
            + " FROM mysql.global_priv";

    /** MySQL 8 keeps them in columns of mysql.user; a role is an account nobody logs in as (it is locked). */
    private static final String MYSQL = "SELECT User, Host, plugin, authentication_string,"
            + " IF(account_locked = 'Y', 'true', 'false'),"
            + " IF(password_expired = 'Y', 0, IFNULL(UNIX_TIMESTAMP(password_last_changed), -1)),"
            + " IFNULL(password_lifetime, -1), max_user_connections, 'false', '',"
            + " @@global.max_user_connections, @@global.default_password_lifetime,"
            + " IF(Select_priv = 'Y', 1, 0) | IF(Insert_priv = 'Y', 2, 0) | IF(Update_priv = 'Y', 4, 0)"
            + " | IF(Delete_priv = 'Y', 8, 0)"
            + " FROM mysql.user";

    private AccountRows() {
    }

    /** The query for a shard whose server announces itself as {@code serverVersion}. */
    public static String query(String serverVersion) {
        return serverVersion.toLowerCase(Locale.ROOT).contains("mariadb") ? MARIADB : MYSQL;
    }

    /** The directory from the query's rows (each a list of text values), without {@code shardAccountUser}'s accounts. */
    public static AccountDirectory directory(List<List<String>> rows, String shardAccountUser) {
        List<Account> accounts = new ArrayList<>(rows.size());
        AccountDirectory.Limits limits = AccountDirectory.Limits.NONE;
        for (List<String> r : rows) {
            limits = new AccountDirectory.Limits(number(r.get(10)), number(r.get(11)));
            if (r.get(0).equals(shardAccountUser)) {
                continue;
            }
            accounts.add(new Account(new AccountName(r.get(0), r.get(1)), r.get(2), r.get(3), truth(r.get(4)),
                    number(r.get(5)), number(r.get(6)), number(r.get(7)), truth(r.get(8)), r.get(9),
                    unsigned(r.get(12))));
        }
        return new AccountDirectory(accounts, limits);
    }

    /** An unsigned 64-bit number as text (ALL PRIVILEGES is 2^64 - 1); 0 when unreadable. */
    private static long unsigned(String s) {
        try {
            return s == null ? 0 : Long.parseUnsignedLong(s.strip());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static boolean truth(String s) {
        return s != null && (s.equalsIgnoreCase("true") || s.equals("1") || s.equalsIgnoreCase("Y"));
    }

    private static long number(String s) {
        if (s == null || s.isEmpty()) {
            return 0;
        }
        try {
            return (long) Double.parseDouble(s);
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
