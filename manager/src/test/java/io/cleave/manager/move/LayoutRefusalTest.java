package io.cleave.manager.move;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every new move, whatever asked for it, is refused while the layout refusal says why (the old primary of a
 * switchover forwards here), before anything is planned or journaled, and is told what the move is.
 */
class LayoutRefusalTest {

    @TempDir
    Path tmp;

    @Test
    void movesOfKeysAndOfTablesAreRefusedBeforeAnythingIsPlanned() throws Exception {
        MapUpdates maps = OfflineMoves.maps(tmp);
        MoveService moves = OfflineMoves.service(tmp, maps);
        List<String> asked = new ArrayList<>();
        AtomicReference<String> refusal = new AtomicReference<>("A's proxy forwards here: ");
        moves.refuseLayoutChangesWhen(what -> {
            asked.add(what);
            return refusal.get() == null ? null : refusal.get() + what + " is refused";
        });
        long version = maps.current().version();

        for (String origin : List.of("cli", "rebalance", "scale")) {
            assertThatThrownBy(() -> moves.start("warehouse", "1-5", 1, origin)).as("a move of origin %s", origin)
                    .isInstanceOfSatisfying(MoveRefused.class, e -> assertThat(e.kind()).isEqualTo(MoveRefused.Kind.CONFLICT))
                    .hasMessage("A's proxy forwards here: a move of keys 1-5 of warehouse is refused");
        }
        MoveRecord tables = new MoveRecord();
        tables.kind = MoveKind.TABLES;
        assertThatThrownBy(() -> moves.startTables(tables, 0)).as("a move of tables")
                .hasMessage("A's proxy forwards here: a move of tables is refused");
        assertThat(moves.list()).as("nothing journaled").isEmpty();
        assertThat(maps.current().version()).as("the map's version").isEqualTo(version);
        assertThat(asked).hasSize(4);

        refusal.set(null);
        assertThatThrownBy(() -> moves.start("warehouse", "1-5", 1, "cli")).as("planned now (the shards are not reachable)")
                .hasMessageNotContaining("forwards here");
    }
}
