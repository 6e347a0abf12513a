package io.cleave.e2e.accounts;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.util.List;

import static io.cleave.e2e.support.QueryRows.column;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cleave's procedures on a shard are created once, not again each time the proxy prepares the
 * shard (at every start, and when a shard comes back): CREATE OR REPLACE drops a procedure first,
 * so a cross-shard commit calling cleave.decide on another connection meanwhile failed with
 * "PROCEDURE cleave.decide does not exist".
 */
class CleaveSchemaIT {

    private static final String PROCEDURES = "SELECT CONCAT(ROUTINE_NAME, ' ', CREATED) FROM information_schema.ROUTINES"
            + " WHERE ROUTINE_SCHEMA = 'cleave' ORDER BY ROUTINE_NAME";

    @Test
    void aProxyPreparingTheShardsAgainLeavesCleavesProceduresAsTheyAre() throws Exception {
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2).create()) {
            RunningDaemon first = home.start();
            List<String> before;
            try (Connection shard = first.connect(1)) {
                before = column(shard, PROCEDURES);
                assertThat(before).hasSize(3);
                // CREATED has a resolution of one second: a procedure made again would show a later one.
                Thread.sleep(1100);
            } finally {
                first.closeLeavingInstancesRunning();
            }
            try (RunningDaemon next = home.start(); Connection shard = next.connect(1)) {
                assertThat(column(shard, PROCEDURES)).isEqualTo(before);
            }
        }
    }
}
