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
}
