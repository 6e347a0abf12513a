package io.cleave.manager.backup.restore;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What a restored home keeps of a coordinated home's config: the pair's etcd section only when it joins the pair. */
class RestoredConfigTest {

    private static final String BACKED_UP = """
            shards: 2
            proxy:
              users: [{name: root, password: ""}]
            coordination:
              etcd: [http://10.0.0.1:2379]
              cluster: orders
            """;

    @Test
    void aRestoredHomeIsAnotherDatabaseAndTakesNoPartInThePair() {
        assertThat(RestoredConfig.of(BACKED_UP, 2, false)).doesNotContain("coordination").doesNotContain("orders");
    }

    @Test
    void aStandbyKeepsThePairsCoordination() {
        assertThat(RestoredConfig.of(BACKED_UP, 2, true)).contains("coordination").contains("cluster: orders");
    }

    @Test
    void theLoadingDaemonClaimsNothing() {
        assertThat(RestoredConfig.forLoading(RestoredConfig.of(BACKED_UP, 2, true), 4000)).doesNotContain("coordination");
    }

    @Test
    void theLoadingDaemonListensOnLoopbackWhateverHostTheBackupCameFrom() {
        String onHostA = BACKED_UP + "server:\n  bind_address: 10.0.0.1\n  advertise_host: db-a\nadmin:\n  listen: 10.0.0.1:6034\n";
        io.cleave.manager.config.CleaveConfig loading = io.cleave.manager.config.ConfigLoader.parse(
                java.nio.file.Path.of("restore-loading.yaml"), RestoredConfig.forLoading(RestoredConfig.of(onHostA, 2, true), 4000));
        assertThat(loading.listen()).isEqualTo(io.cleave.manager.config.ListenAddresses.DEFAULT);
        assertThat(loading.adminPort()).isZero();
        assertThat(loading.server().basePort()).isEqualTo(4000);
    }
}
