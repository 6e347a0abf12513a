package io.cleave.manager.standby;

import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.config.ConfigLoader;
import io.cleave.manager.config.ReplicationTls;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StandbyConfigTest {

    private static final String PRIMARY = """
            shards: 2
            server:
              base_port: 3307
              options:
                innodb_flush_log_at_trx_commit: "1"
            proxy:
              listen: 127.0.0.1:6033
              users: [{name: root, password: ""}]
            admin:
              port: 6034
            """;

    @Test
    void theStandbyKeepsThePrimarysSettingsWithItsOwnAddressesServerIdsAndReplicaOptions() {
        String yaml = new StandbyConfig(3407, 6134, "127.0.0.1:6133", 2000).apply(PRIMARY);
        CleaveConfig c = ConfigLoader.parse(Path.of("standby.yaml"), yaml);
        assertThat(c.shards()).isEqualTo(2);
        assertThat(c.server().basePort()).isEqualTo(3407);
        assertThat(c.server().serverIdBase()).isEqualTo(2000);
        assertThat(c.adminPort()).isEqualTo(6134);
        assertThat(c.proxy().listen().port()).isEqualTo(6133);
        assertThat(c.server().options()).containsEntry("innodb_flush_log_at_trx_commit", "1")
                .containsEntry("read_only", "ON").containsEntry("gtid_strict_mode", "ON")
                .containsEntry("rpl_semi_sync_slave_enabled", "ON").containsEntry("log_slave_updates", "ON");
    }

    @Test
    void theStandbyListensOnItsOwnAddressesNotThePrimarys() {
        String primaryOnA = PRIMARY.replace("  base_port: 3307\n", "  base_port: 3307\n  bind_address: 10.213.7.2\n")
                .replace("admin:\n  port: 6034\n", "admin:\n  listen: 10.213.7.2:6034\n");
        CleaveConfig onLoopback = ConfigLoader.parse(Path.of("standby.yaml"),
                new StandbyConfig(3407, 6134, "127.0.0.1:6133", 2000).apply(primaryOnA));
        assertThat(onLoopback.listen()).isEqualTo(io.cleave.manager.config.ListenAddresses.DEFAULT);
        assertThat(onLoopback.adminPort()).isEqualTo(6134);
        CleaveConfig onB = ConfigLoader.parse(Path.of("standby.yaml"), new StandbyConfig(3407, 6134, "127.0.0.1:6133",
                2000, new io.cleave.manager.config.ListenAddresses("10.213.7.3", java.util.Optional.empty(), "10.213.7.3"))
                .apply(primaryOnA));
        assertThat(onB.listen().shardHost()).isEqualTo("10.213.7.3");
        assertThat(onB.listen().adminUrl(onB.adminPort())).isEqualTo("http://10.213.7.3:6134");
    }

    @Test
    void theStandbyRunsReplicationTlsAsThePairDoes() {
        Attachment offering = new Attachment(1, "cleave_repl", "x", 1000, List.of(), List.of(), null, "-----BEGIN CERTIFICATE-----");
        Attachment plain = new Attachment(1, "cleave_repl", "x", 1000, List.of(), List.of(), null, null);
        assertThat(StandbySeed.replicationTls(offering, ReplicationTls.OFF))
                .as("the primary's shards offer TLS: the pair's replication is encrypted both ways").isEqualTo(ReplicationTls.REQUIRED);
        assertThat(StandbySeed.replicationTls(plain, ReplicationTls.OFF)).isEqualTo(ReplicationTls.OFF);
        assertThatThrownBy(() -> StandbySeed.replicationTls(plain, ReplicationTls.REQUIRED))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("the primary's shards offer no TLS")
                .hasMessageContaining("server.replication_tls: required on the primary");

        String yaml = new StandbyConfig(3407, 6134, "127.0.0.1:6133", 2000).withReplicationTls(ReplicationTls.REQUIRED)
                .apply(PRIMARY);
        assertThat(ConfigLoader.parse(Path.of("standby.yaml"), yaml).listen().replicationTls()).isEqualTo(ReplicationTls.REQUIRED);
        String off = new StandbyConfig(3407, 6134, "127.0.0.1:6133", 2000, new io.cleave.manager.config.ListenAddresses(
                "10.213.7.3", java.util.Optional.empty(), "10.213.7.3")).withReplicationTls(ReplicationTls.OFF).apply(PRIMARY);
        assertThat(ConfigLoader.parse(Path.of("standby.yaml"), off).listen().replicationTls())
                .as("written, not left to the default of the standby's address").isEqualTo(ReplicationTls.OFF);
    }

    @Test
    void gtidPositionsCompareByDomain() {
        GtidPosition primary = GtidPosition.parse("0-1000-338");
        assertThat(GtidPosition.parse("0-1000-338").reached(primary)).isTrue();
        assertThat(GtidPosition.parse("0-2000-340").reached(primary)).as("a later sequence, written by another server").isTrue();
        assertThat(GtidPosition.parse("0-1000-337").reached(primary)).isFalse();
        assertThat(GtidPosition.parse("").reached(primary)).isFalse();
        assertThat(GtidPosition.parse("0-1000-400").reached(GtidPosition.parse("0-1000-5,1-1000-2")))
                .as("domain 1 not applied").isFalse();
        assertThat(primary.reached(GtidPosition.parse(""))).isTrue();
    }

    @Test
    void onlyGtidListsReachTheReplicasStatements() {
        assertThat(ReplicaSetup.gtid("0-1000-27,1-1000-3")).isEqualTo("0-1000-27,1-1000-3");
        assertThatThrownBy(() -> ReplicaSetup.gtid("0-1-1'; DROP TABLE x; --")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> GtidPosition.parse("0-1")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theBinlogFileBeforeACutsFileKeepsItsNumbering() {
        assertThat(PreparedAtCut.previousFile("binlog.000007")).isEqualTo("binlog.000006");
        assertThat(PreparedAtCut.previousFile("binlog.001000")).isEqualTo("binlog.000999");
        assertThat(PreparedAtCut.previousFile("binlog.000001")).isNull();
    }
}
