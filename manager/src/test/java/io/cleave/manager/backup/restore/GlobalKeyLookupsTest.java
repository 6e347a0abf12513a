package io.cleave.manager.backup.restore;

import io.cleave.manager.backup.BackupManifest;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A backup of three shards whose global unique key's lookup has rows on shards 0 and 2, restored into fewer or more shards. */
class GlobalKeyLookupsTest {

    private static final BackupManifest MANIFEST = manifest(
            table("cleave", "u_app_users_email", "local", chunk(0, 5), chunk(1, 0), chunk(2, 3)),
            table("cleave", "decisions", "local", chunk(0, 1), chunk(2, 4)),
            table("app", "users", "sharded", chunk(0, 10), chunk(2, 10)));

    @Test
    void intoFewerShardsThanHoldLookupRowsIsRefusedNamingTheLookupAndTheShardsNeeded() {
        assertThatThrownBy(() -> GlobalKeyLookups.checkFit(MANIFEST, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cleave.u_app_users_email").hasMessageContaining("shard 2")
                .hasMessageContaining("restore into at least 3 shards");
    }

    @Test
    void intoAsManyOrMoreShardsItFits() {
        assertThatCode(() -> GlobalKeyLookups.checkFit(MANIFEST, 3)).doesNotThrowAnyException();
        assertThatCode(() -> GlobalKeyLookups.checkFit(MANIFEST, 5)).doesNotThrowAnyException();
    }

    /** The decision records of a shard left out are not a reason to refuse: they are settled first. */
    @Test
    void otherLocalTablesDoNotCount() {
        BackupManifest noLookups = manifest(table("cleave", "decisions", "local", chunk(0, 1), chunk(2, 4)));
        assertThatCode(() -> GlobalKeyLookups.checkFit(noLookups, 1)).doesNotThrowAnyException();
    }

    private static BackupManifest.Chunk chunk(int shard, long rows) {
        return new BackupManifest.Chunk("k" + shard, shard, rows, rows * 10, rows * 5, "sha");
    }

    private static BackupManifest.TableBackup table(String schema, String name, String rule, BackupManifest.Chunk... chunks) {
        return new BackupManifest.TableBackup(schema, name, rule, null, null, -1, "CREATE TABLE x (id INT)", List.of(),
                List.of(), 0, 0, List.of(chunks));
    }

    private static BackupManifest manifest(BackupManifest.TableBackup... tables) {
        return new BackupManifest(BackupManifest.FORMAT, "b", BackupManifest.LOGICAL, "", "", 0, List.of(), 3, "11.4",
                "{}", "", List.of(), List.of(), List.of(tables), 0, 0, 0, 0, List.of(), List.of(), List.of());
    }
}
