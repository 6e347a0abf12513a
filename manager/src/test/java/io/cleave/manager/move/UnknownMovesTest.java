package io.cleave.manager.move;

import io.cleave.router.shardmap.ShardMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A map naming a move no journal here records (a promoted standby's, whose old primary ran a move of
 * tables): every new move is refused before anything is planned, and ids never reuse the map's.
 */
class UnknownMovesTest {

    @TempDir
    Path tmp;

    @Test
    void movesAreRefusedWhileTheMapHoldsRowsOfAMoveWithoutARecord() throws Exception {
        MapUpdates maps = OfflineMoves.maps(tmp);
        // The old primary's shard-table (move 7) was copying when this home was promoted.
        maps.update(m -> m.withMovingTables(List.of("item"), 7));
        MoveService moves = OfflineMoves.service(tmp, maps);

        assertThat(moves.reserveId()).as("ids after every id the map names").isEqualTo(8);
        assertThatThrownBy(() -> moves.start("warehouse", "1-5", 1, "cli")).isInstanceOfSatisfying(MoveRefused.class,
                        e -> assertThat(e.kind()).isEqualTo(MoveRefused.Kind.CONFLICT))
                .hasMessageStartingWith("the shard map holds rows of moves [7] this home has no record of");
        assertThat(moves.list()).as("nothing journaled").isEmpty();

        maps.update(m -> m.withoutMovingTables(7));
        ShardMap now = maps.current();
        assertThat(now.movingTables()).isEmpty();
        assertThatThrownBy(() -> moves.start("warehouse", "1-5", 1, "cli")).as("planned now (the shards are not reachable)")
                .hasMessageNotContaining("no record of");
    }
}
