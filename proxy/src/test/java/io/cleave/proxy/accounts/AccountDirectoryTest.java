package io.cleave.proxy.accounts;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A login finds its account as a server does: the most specific host, named users before anonymous ones. */
class AccountDirectoryTest {

    private static final ClientAddress TEN_FIVE = new ClientAddress(null, "10.0.0.5");
    private static final ClientAddress LOOPBACK = new ClientAddress(null, "127.0.0.1");

    private static Account account(String user, String host) {
        return Account.nativePassword(new AccountName(user, host), "");
    }

    private static AccountDirectory directory(Account... accounts) {
        return new AccountDirectory(List.of(accounts), AccountDirectory.Limits.NONE);
    }

    @Test
    void theMostSpecificHostWins() {
        AccountDirectory d = directory(account("app", "%"), account("app", "10.0.0.%"), account("app", "10.0.0.5"),
                account("app", "10.%"));
        assertThat(d.resolve("app", TEN_FIVE).name()).isEqualTo(new AccountName("app", "10.0.0.5"));
        assertThat(d.resolve("app", new ClientAddress(null, "10.0.0.6")).name()).isEqualTo(new AccountName("app", "10.0.0.%"));
        assertThat(d.resolve("app", new ClientAddress(null, "10.1.0.6")).name()).isEqualTo(new AccountName("app", "10.%"));
        assertThat(d.resolve("app", LOOPBACK).name()).isEqualTo(new AccountName("app", "%"));
        assertThat(d.resolve("other", LOOPBACK)).isNull();
    }

    @Test
    void localhostIsTheUnixSocketOnlyAndNeverAnAddress() {
        AccountDirectory d = directory(account("root", "localhost"), account("root", "127.0.0.1"));
        assertThat(d.resolve("root", ClientAddress.LOCAL_SOCKET).name()).isEqualTo(new AccountName("root", "localhost"));
        assertThat(d.resolve("root", LOOPBACK).name()).isEqualTo(new AccountName("root", "127.0.0.1"));
        assertThat(d.resolve("root", new ClientAddress(null, "::1"))).isNull();
    }

    @Test
    void anAnonymousAccountOnAMoreSpecificHostBeatsANamedOneOnAWildcard() {
        // The server's historical order, kept by MariaDB: an anonymous ''@'localhost' shadows 'app'@'%'.
        AccountDirectory d = directory(account("app", "%"), account("", "localhost"));
        assertThat(d.resolve("app", ClientAddress.LOCAL_SOCKET).name()).isEqualTo(new AccountName("", "localhost"));
        assertThat(d.resolve("app", LOOPBACK).name()).isEqualTo(new AccountName("app", "%"));
        assertThat(d.resolve("nobody", ClientAddress.LOCAL_SOCKET).name()).isEqualTo(new AccountName("", "localhost"));
    }

    @Test
    void netmasksMatchIpv4AddressesOnly() {
        AccountDirectory d = directory(account("app", "10.0.0.0/255.255.255.0"));
        assertThat(d.resolve("app", TEN_FIVE)).isNotNull();
        assertThat(d.resolve("app", new ClientAddress(null, "10.0.1.5"))).isNull();
        assertThat(d.resolve("app", ClientAddress.LOCAL_SOCKET)).isNull();
    }

    @Test
    void rolesNeverLogIn() {
        Account role = new Account(AccountName.role("reader"), "", "", false, -1, -1, 0, true, "", 0);
        AccountDirectory d = directory(role);
        assertThat(d.resolve("reader", LOOPBACK)).isNull();
        assertThat(d.find(AccountName.role("reader"))).isEqualTo(role);
    }

    @Test
    void hostPatternsUseLikeWildcardsAndEscapes() {
        assertThat(HostPattern.matches("10.0.0._", TEN_FIVE)).isTrue();
        assertThat(HostPattern.matches("10.0.0.__", TEN_FIVE)).isFalse();
        assertThat(HostPattern.matches("10\\.0.0.5", TEN_FIVE)).isTrue();
        assertThat(HostPattern.matches("LOCALHOST", ClientAddress.LOCAL_SOCKET)).isTrue();
        assertThat(HostPattern.specificity("10.0.0.5")).isEqualTo(128);
        assertThat(HostPattern.specificity("10.0.0.%")).isEqualTo(8);
        assertThat(HostPattern.specificity("%")).isEqualTo(1);
        assertThat(HostPattern.specificity("")).isZero();
    }

    @Test
    void passwordsExpireByFlagOrByAge() {
        Account expired = new Account(new AccountName("a", "%"), "", "", false, 0, -1, 0, false, "", 0);
        Account old = new Account(new AccountName("a", "%"), "", "", false, 1_000, 10, 0, false, "", 0);
        Account byDefault = new Account(new AccountName("a", "%"), "", "", false, 1_000, -1, 0, false, "", 0);
        long later = 1_000 + 11 * 86_400;
        assertThat(expired.passwordExpired(later, 0)).isTrue();
        assertThat(old.passwordExpired(later, 0)).isTrue();
        assertThat(old.passwordExpired(1_000 + 9 * 86_400, 0)).isFalse();
        assertThat(byDefault.passwordExpired(later, 0)).isFalse();
        assertThat(byDefault.passwordExpired(later, 10)).isTrue();
    }

    @Test
    void theGrantTablesRowsBecomeADirectoryWithoutTheShardAccount() {
        List<List<String>> rows = List.of(
                List.of("cleave", "localhost", "mysql_native_password", "*AB", "false", "-1", "-1", "0", "false", "", "0", "0",
                        "18446744073709551615"),
                List.of("app", "%", "mysql_native_password", "*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19", "true",
                        "1795834850", "10", "3", "false", "reader", "5", "30", "7"),
                List.of("root", "localhost", "", "", "false", "-1", "-1", "0", "false", "", "5", "30",
                        "18446744073709551615"),
                List.of("reader", "", "", "", "false", "-1", "-1", "0", "true", "", "5", "30", "0"));
        AccountDirectory d = AccountRows.directory(rows, "cleave");
        assertThat(d.size()).isEqualTo(3);
        assertThat(d.resolve("cleave", ClientAddress.LOCAL_SOCKET)).isNull();
        Account app = d.resolve("app", LOOPBACK);
        assertThat(app.locked()).isTrue();
        assertThat(app.maxUserConnections()).isEqualTo(3);
        assertThat(app.defaultRole()).isEqualTo("reader");
        // SELECT, INSERT and UPDATE on *.* but not DELETE: not every table's reader and writer.
        assertThat(app.readsAndWritesEveryTable()).isFalse();
        assertThat(d.resolve("root", ClientAddress.LOCAL_SOCKET).readsAndWritesEveryTable()).isTrue();
        assertThat(app.nativeHash()).hasSize(20);
        assertThat(d.limits()).isEqualTo(new AccountDirectory.Limits(5, 30));
        assertThat(d.find(AccountName.role("reader")).role()).isTrue();
    }
}
