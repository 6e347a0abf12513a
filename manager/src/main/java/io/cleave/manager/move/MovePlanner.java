package io.cleave.manager.move;

import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.keyspace.ShardFunction;
import io.cleave.router.shardmap.KeySet;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Checks a move request against the shard map, the moves under way and the shards' tables, and
 * turns it into a journaled {@link MoveRecord}: which shard the keys leave, and every table of the
 * keyspace with its primary key. Every refusal says what is wrong; nothing has moved by then.
 */
final class MovePlanner {

    private final ShardLinks shards;
    private final MapUpdates maps;

    MovePlanner(ShardLinks shards, MapUpdates maps) {
        this.shards = shards;
        this.maps = maps;
    }

    MoveRecord plan(long id, String keyspaceName, String keysText, int target, List<MoveRecord> active) {
        Topology topology = maps.routing();
        Keyspace keyspace = topology.keyspaces().get(keyspaceName);
        if (keyspace == null) {
            throw bad("unknown keyspace '" + keyspaceName + "': the keyspaces are " + new TreeSet<>(topology.keyspaces().keySet()));
        }
        ShardMap map = maps.current();
        ShardFunction function = map.function(keyspaceName, keyspace.function());
        KeySet keys;
        int source;
        try {
            keys = KeySet.parse(keysText, function);
            source = map.sourceOf(keyspaceName, keys, keyspace.function());
        } catch (IllegalArgumentException e) {
            throw bad(e.getMessage());
        }
        if (target < 0 || target >= map.shardCount()) {
            throw new MoveRefused(MoveRefused.Kind.NOT_FOUND, "shard " + target + " does not exist: the shards are 0-"
                    + (map.shardCount() - 1));
        }
        if (source == target) {
            throw bad("keys " + keys + " of " + keyspaceName + " are on shard " + target + " already: nothing to move");
        }
        if (keyspace.function().keyType() == KeyType.STRING) {
            throw bad("keyspace " + keyspaceName + " hashes string keys: moving them is not supported yet (multi-shard"
                    + " statements could not leave out the rows being moved)");
        }
        for (MoveRecord m : active) {
            if (m.overlaps(keyspaceName, keys, function)) {
                throw new MoveRefused(MoveRefused.Kind.CONFLICT, "move " + m.id + " is already moving keys " + m.keys
                        + " of " + keyspaceName + " (" + m.phase.name().toLowerCase() + "): wait for it, or cancel it with"
                        + " 'cleave move --cancel " + m.id + "'");
            }
        }
        MoveRecord r = new MoveRecord();
        r.id = id;
        r.keyspace = keyspaceName;
        r.keys = keys.toString();
        r.source = source;
        r.target = target;
        r.created = Instant.now().toString();
        try {
            r.tables = tables(keyspaceName, source, target);
        } catch (SQLException e) {
            throw new MoveRefused(MoveRefused.Kind.CONFLICT, "cannot read the tables of keyspace " + keyspaceName
                    + " on shards " + source + " and " + target + ": " + e.getMessage());
        }
        return r;
    }

    /**
     * Every table sharded on the keyspace now, in every schema of the source that has it, with its
     * primary key. A queued move takes them again when it starts: a table given a rule on the
     * keyspace by a move that ran before it has joined since it was planned. A shard that does not
     * answer is an SQLException (the runner waits for it); a table no move can take is refused.
     */
    List<TableProgress> tables(String keyspace, int source, int target) throws SQLException {
        Topology topology = maps.routing();
        List<TableProgress> out = new ArrayList<>();
        try (Connection s = shards.open(source); Connection t = shards.open(target)) {
            for (TableRule rule : topology.tables().values()) {
                if (!(rule instanceof TableRule.Sharded sharded) || !sharded.keyspace().equals(keyspace)) {
                    continue;
                }
                for (String[] found : Catalog.find(s, sharded.table())) {
                    List<String> pk = Catalog.primaryKey(s, found[0], found[1]);
                    if (pk.isEmpty()) {
                        throw bad("table " + found[0] + "." + found[1] + " of keyspace " + keyspace + " has no primary key:"
                                + " a move copies, verifies and cleans up rows by primary key; add one before moving");
                    }
                    if (Catalog.primaryKey(t, found[0], found[1]).isEmpty()) {
                        throw bad("table " + found[0] + "." + found[1] + " is missing on shard " + target
                                + " (or has no primary key there): create it through the proxy so every shard has it");
                    }
                    for (String refusal : new String[] {Catalog.triggerRefusal(s, found[0], found[1], "shard " + source),
                            Catalog.triggerRefusal(t, found[0], found[1], "shard " + target)}) {
                        if (refusal != null) {
                            throw bad(refusal);
                        }
                    }
                    out.add(new TableProgress(found[0], found[1], sharded.column(), pk));
                }
            }
        }
        return out;
    }

    private static MoveRefused bad(String message) {
        return new MoveRefused(MoveRefused.Kind.BAD_REQUEST, message);
    }
}
