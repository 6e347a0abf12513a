package io.cleave.manager.accounts;

import io.cleave.manager.config.ProxyUser;
import io.cleave.manager.instance.Flavour;
import io.cleave.proxy.accounts.AccountName;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The statements that create the config's {@code proxy.users} on a shard at the first start of a
 * home: one account per user and host, with its password hash (never a password) and its grants.
 */
final class BootstrapAccounts {

    private static final Pattern WITH_GRANT_OPTION = Pattern.compile("(?i)^(.*?)\\s+WITH\\s+GRANT\\s+OPTION\\s*$");

    private BootstrapAccounts() {
    }

    static List<String> statements(List<ProxyUser> users, Flavour flavour) {
        List<String> out = new ArrayList<>();
        for (ProxyUser u : users) {
            for (String host : u.hosts()) {
                AccountName name = new AccountName(u.name(), host);
                out.add("CREATE USER IF NOT EXISTS " + name.sql() + identified(u, flavour));
                for (String grant : u.grants()) {
                    Matcher m = WITH_GRANT_OPTION.matcher(grant.trim());
                    out.add(m.matches() ? "GRANT " + m.group(1) + " TO " + name.sql() + " WITH GRANT OPTION"
                            : "GRANT " + grant.trim() + " TO " + name.sql());
                }
            }
        }
        return out;
    }

    private static String identified(ProxyUser u, Flavour flavour) {
        if (u.hasEmptyPassword()) {
            return "";
        }
        if (u.mysqlNativePassword().isPresent()) {
            String hash = u.mysqlNativePassword().get().toUpperCase(Locale.ROOT);
            return flavour.isMysqlFamily() ? " IDENTIFIED WITH mysql_native_password AS '" + hash + "'"
                    : " IDENTIFIED BY PASSWORD '" + hash + "'";
        }
        if (!flavour.isMysqlFamily()) {
            throw new IllegalStateException("proxy.users: '" + u.name() + "' has only a caching_sha2_password hash, which"
                    + " MariaDB cannot store: give its mysql_native_password hash ('cleave hash-password' prints both)");
        }
        return " IDENTIFIED WITH caching_sha2_password AS '" + u.cachingSha2Password().get() + "'";
    }
}
