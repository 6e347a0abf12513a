package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ShardReply;
import io.cleave.proxy.protocol.ServerStatus;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.router.shardmap.ShardMapHolder;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A database the shard map refuses by name (an import a promotion cut short before its cutover): a client cannot log
 * in to it, USE it, go on in it or name it in a statement, and gets 1044 with the map's reason; other databases are
 * served, and DROP DATABASE of it runs and tells the runtime.
 */
class RefusedDatabaseFlowTest {

    private static final String WHY = "its import from mysql://app@db1:3306/shop was cut short by a failover before its"
            + " cutover; the source still holds the database. Run 'cleave import' again";

    private final FakeProxy proxy = new FakeProxy();
    private final EmbeddedClient client = proxy.connect();

    private void refuse(String database) {
        ShardMapHolder maps = proxy.runtime.shardMaps();
        maps.publish(maps.current().withRefusedDatabase(database, WHY));
    }

    private static void assertRefused(ClientReply reply, String database) {
        assertThat(reply.isOk()).isFalse();
        assertThat(reply.error().errorCode()).isEqualTo(1044);
        assertThat(reply.error().sqlState()).isEqualTo("42000");
        assertThat(reply.error().message()).startsWith("Access denied for user 'app'@'%' to database '" + database + "': ")
                .endsWith(WHY);
    }

    @Test
    void aRefusedDatabaseCannotBeUsedOrNamedWhileTheOthersAreServed() {
        refuse("shop");
        for (String sql : List.of("USE shop", "SELECT * FROM shop.items", "SELECT * FROM `shop`.`items` WHERE id = 1",
                "INSERT INTO shop.items VALUES (1, 'a')", "CREATE DATABASE shop", "SHOW TABLES FROM shop",
                "SELECT v FROM t JOIN shop.items i ON i.id = t.id WHERE t.id = 5")) {
            assertRefused(proxy.run(client, sql), "shop");
        }
        assertThat(proxy.shard(0).queries()).as("nothing reached a shard").isEmpty();
        assertThat(proxy.shard(1).queries()).isEmpty();

        proxy.shard(0).answer("SELECT v FROM t WHERE id = 5", ShardReply.ok());
        assertThat(proxy.run(client, "SELECT v FROM t WHERE id = 5").isOk()).as("the session's own database").isTrue();
        proxy.shard(0).answer("SELECT * FROM Shop.items", ShardReply.ok());
        assertThat(proxy.run(client, "SELECT * FROM Shop.items").isOk()).as("another database (names are exact)").isTrue();
        assertThat(proxy.run(client, "USE other").isOk()).isTrue();
    }

    @Test
    void aSessionInADatabaseRefusedSinceIsRefusedToo() {
        proxy.shard(0).answer("SELECT v FROM t WHERE id = 5", ShardReply.ok());
        assertThat(proxy.run(client, "SELECT v FROM t WHERE id = 5").isOk()).isTrue();

        refuse("app");

        assertRefused(proxy.run(client, "SELECT v FROM t WHERE id = 5"), "app");
        proxy.shard(0).answer("USE other", ShardReply.ok());
        assertThat(proxy.run(client, "USE other").isOk()).as("it may leave").isTrue();
        assertThat(proxy.run(client, "SELECT v FROM t WHERE id = 5").isOk()).isTrue();
    }

    @Test
    void aLoginToARefusedDatabaseIsRefusedWithoutAskingAShard() {
        refuse("shop");
        proxy.shard(0).forget();

        ErrPacket refused = EmbeddedClient.refusal(proxy.runtime, FakeProxy.CLIENT, FakeProxy.APP.user(), "shop",
                channel -> proxy.pump());

        assertThat(refused).isNotNull();
        assertThat(refused.errorCode()).isEqualTo(1044);
        assertThat(refused.sqlState()).isEqualTo("42000");
        assertThat(refused.message()).contains("to database 'shop'").endsWith(WHY);
        assertThat(proxy.shard(0).queries()).doesNotContain("DO 0");
        assertThat(EmbeddedClient.refusal(proxy.runtime, FakeProxy.CLIENT, FakeProxy.APP.user(), "app",
                channel -> proxy.pump())).as("another database").isNull();
    }

    @Test
    void droppingARefusedDatabaseRunsOnEveryShardAndTellsTheRuntime() {
        List<String> dropped = new ArrayList<>();
        proxy.runtime.refusedDatabaseDropped(dropped::add);
        refuse("shop");
        for (int s = 0; s < 2; s++) {
            proxy.shard(s).answer("DROP DATABASE IF EXISTS shop", ShardReply.ok(ServerStatus.DB_DROPPED));
        }

        ClientReply reply = proxy.run(client, "DROP DATABASE IF EXISTS shop");

        assertThat(reply.isOk()).as(String.valueOf(reply.isOk() ? "" : reply.error().message())).isTrue();
        assertThat(proxy.shard(0).queries()).contains("DROP DATABASE IF EXISTS shop");
        assertThat(proxy.shard(1).queries()).contains("DROP DATABASE IF EXISTS shop");
        assertThat(dropped).containsExactly("shop");
    }
}
