package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ShardReply;
import io.cleave.proxy.protocol.ColumnType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.cleave.proxy.backend.ShardReply.column;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client's statements run on backend connections logged in as its own account, so the shards
 * check them against its privileges: connections are pooled per account, and after the grant
 * tables change through the proxy none made before is lent again.
 */
class AccountConnectionsFlowTest {

    private static final String READ = "SELECT v FROM t WHERE id = 5";

    private final FakeProxy proxy = new FakeProxy();

    AccountConnectionsFlowTest() {
        // Both clients borrow from the same pools, where an idle connection of the other account waits.
        proxy.runtime.serveEveryLoopAsOne();
        proxy.shard(0).answer(READ, ShardReply.rows(List.of(column("v", ColumnType.VAR_STRING)), new String[] {"five"}));
    }

    @Test
    void eachAccountsStatementsRunOnConnectionsLoggedInAsIt() {
        EmbeddedClient app = proxy.connect();
        EmbeddedClient reader = proxy.connect(FakeProxy.CLIENT, "reader");

        assertThat(proxy.run(app, READ).rows()).containsExactly(List.of("five"));
        assertThat(proxy.run(reader, READ).rows()).containsExactly(List.of("five"));
        assertThat(proxy.run(app, READ).rows()).containsExactly(List.of("five"));
        assertThat(proxy.run(reader, READ).rows()).containsExactly(List.of("five"));

        assertThat(proxy.shard(0).logins()).as("one connection per account, each reused by its own account only")
                .containsExactly("'app'@'%'", "'reader'@'%'");
        assertThat(proxy.pool(app, 0).idle()).isEqualTo(2);
    }

    @Test
    void afterTheGrantTablesChangeAnAccountsOldConnectionsAreNotLentAgain() {
        EmbeddedClient app = proxy.connect();
        proxy.run(app, READ);
        assertThat(proxy.shard(0).openConnections()).isEqualTo(1);

        proxy.runtime.accounts().logins().accountsChanged();
        assertThat(proxy.run(app, READ).rows()).containsExactly(List.of("five"));

        assertThat(proxy.shard(0).logins()).as("a fresh login, with the privileges the account has now")
                .containsExactly("'app'@'%'", "'app'@'%'");
        assertThat(proxy.shard(0).openConnections()).as("the old one was closed").isEqualTo(1);
        assertThat(proxy.pool(app, 0).open()).isEqualTo(1);
    }
}
