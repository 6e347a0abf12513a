package io.cleave.manager.standby;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Whether a standby can reach the primary's proxy where the primary says it listens. */
class PrimaryProxyAddressTest {

    private static Attachment primary(String proxyHost, String shardHost) {
        return new Attachment(1, "cleave_repl", "x", 1000, List.of(new Attachment.ShardAddress(0, shardHost, 3306)),
                List.of(), new Attachment.ProxyAddress(proxyHost, 6033), null);
    }

    @Test
    void aLoopbackProxyOfAPrimaryOnAnotherHostCannotBeReached() {
        assertThat(ShardFollower.loopbackElsewhere(primary("127.0.0.1", "10.0.0.1")))
                .contains("127.0.0.1:6033").contains("its shards are at 10.0.0.1").contains("not reachable from this standby");
    }

    @Test
    void aLoopbackProxyOfAPrimaryOnThisHostOrAProxyOnAnAddressMayBe() {
        assertThat(ShardFollower.loopbackElsewhere(primary("127.0.0.1", "127.0.0.1"))).isNull();
        assertThat(ShardFollower.loopbackElsewhere(primary("10.0.0.1", "10.0.0.1"))).isNull();
    }
}
