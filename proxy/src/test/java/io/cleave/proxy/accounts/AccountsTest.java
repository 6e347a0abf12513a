package io.cleave.proxy.accounts;

import io.cleave.proxy.backend.ShardCredential;
import io.cleave.proxy.backend.ShardLogin;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which way a client's account reaches the shards, and how many clients an account may have. */
class AccountsTest {

    private static Account account(String user, String host, long maxConnections) {
        return new Account(new AccountName(user, host), "", "", false, -1, -1, maxConnections, false, "", 0);
    }

    @Test
    void anAccountTheShardsWouldPickForTheSocketTooGoesOverTheSocket() {
        Account app = account("app", "%", 0);
        Accounts accounts = new Accounts("cleave", new AccountDirectory(List.of(app), AccountDirectory.Limits.NONE));
        ShardLogin login = accounts.loginFor("app", app, new ClientAddress(null, "10.0.0.5"), 0, ShardCredential.NONE, true);
        assertThat(login.proxied()).isFalse();
        assertThat(login.user()).isEqualTo("app");
        assertThat(accounts.loginFor("app", app, new ClientAddress(null, "10.0.0.6"), 0, ShardCredential.NONE, true))
                .as("one login per account, route and profile").isSameAs(login);
    }

    @Test
    void anAccountOfAnAddressGoesByThatAddress() {
        Account byAddress = account("app", "10.0.0.%", 0);
        Account local = account("app", "localhost", 0);
        Accounts accounts = new Accounts("cleave", new AccountDirectory(List.of(byAddress, local),
                AccountDirectory.Limits.NONE));
        ShardLogin login = accounts.loginFor("app", byAddress, new ClientAddress(null, "10.0.0.5"), 0,
                ShardCredential.NONE, true);
        assertThat(login.proxied()).isTrue();
        assertThat(login.clientIp()).isEqualTo("10.0.0.5");
        assertThat(accounts.loginFor("app", byAddress, new ClientAddress(null, "10.0.0.5"), 0, ShardCredential.NONE,
                false)).as("without the PROXY protocol the shards would pick another account").isNull();
        assertThat(accounts.loginFor("app", local, ClientAddress.LOCAL_SOCKET, 0, ShardCredential.NONE, false).proxied())
                .isFalse();
    }

    @Test
    void maxUserConnectionsCountsClientsOfTheAccount() {
        Account app = account("app", "%", 2);
        Accounts accounts = new Accounts("cleave", new AccountDirectory(List.of(app), AccountDirectory.Limits.NONE));
        assertThat(accounts.admit(app)).isTrue();
        assertThat(accounts.admit(app)).isTrue();
        assertThat(accounts.admit(app)).isFalse();
        accounts.left(app.name());
        assertThat(accounts.admit(app)).isTrue();
        Account unlimited = account("other", "%", 0);
        Accounts serverLimit = new Accounts("cleave", new AccountDirectory(List.of(unlimited),
                new AccountDirectory.Limits(1, 0)));
        assertThat(serverLimit.admit(unlimited)).isTrue();
        assertThat(serverLimit.admit(unlimited)).as("the server's max_user_connections applies").isFalse();
    }

    @Test
    void theShardAccountIsReserved() {
        Accounts accounts = new Accounts("cleave", AccountDirectory.EMPTY);
        assertThat(accounts.isShardAccount("cleave")).isTrue();
        assertThat(accounts.isShardAccount("Cleave")).isFalse();
    }
}
