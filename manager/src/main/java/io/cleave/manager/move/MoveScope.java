package io.cleave.manager.move;

import io.cleave.proxy.cutover.Cutover;
import io.cleave.router.shardmap.ShardMap;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * What differs between moving keys and moving whole tables; the phases of {@link MoveRunner}
 * (copy, catch-up, verify, cutover, cleanup) are the same for both and ask this.
 */
sealed interface MoveScope permits KeysScope, TablesScope {

    static MoveScope of(MoveRecord r, MoveEnvironment env) {
        return r.kind == MoveKind.TABLES ? new TablesScope(r, env) : new KeysScope(r, env);
    }

    /** The shards that receive rows. */
    List<Integer> targets();

    /** Before the copy: what the shards and the map need first (idempotent: a resumed move runs it again). */
    void prepare() throws SQLException;

    /** Where the rows of one table go. */
    Placement placement(TableShape shape);

    /** Which statements the cutover holds. */
    Cutover.Scope cutoverScope();

    /** The map the fence publishes: what moved belongs to its targets from then on. */
    ShardMap flip(ShardMap current);

    /** Whether {@code map} already shows the move's result (a resumed move then only cleans up). */
    boolean switched(ShardMap map);

    /** After the flip: deletes from the source what left it. */
    void cleanUp(Connection source, List<TableShape> shapes, RowDeleter deleter, RowDeleter.ChunkListener listener)
            throws SQLException, InterruptedException;

    /** What the map drops once the move ended either way (ghosts, tables marked as being copied). */
    ShardMap ended(ShardMap current);

    /** Whether {@link #ended} would change {@code map}. */
    boolean leftInMap(ShardMap map);
}
