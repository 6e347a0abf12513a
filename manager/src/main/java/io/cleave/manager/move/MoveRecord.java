package io.cleave.manager.move;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.ArrayList;
import java.util.List;

/**
 * Everything known about one move, as journaled in {@code state/moves/move-N.json} (written and
 * fsynced before each step it describes) and as shown by {@code cleave moves} and the admin API.
 * Changed only by the move's own runner thread; readers get copies through {@link MoveJournal}.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public final class MoveRecord {
    public long id;
    public MoveKind kind = MoveKind.KEYS;
    /** KEYS: the keyspace and keys that move. */
    public String keyspace;
    public String keys;
    public int source;
    /** KEYS: the shard the keys go to; TABLES: the first of {@link #targets}. */
    public int target;
    /** TABLES: every shard that receives rows. */
    public List<Integer> targets = new ArrayList<>();
    /** TABLES: the source keeps its rows (an import's source is never written; a reference table keeps its copy). */
    public boolean keepSource;
    /** TABLES: the local shard count the cutover publishes (new shards whose copies are ready); 0: unchanged. */
    public int shardCountAfter;
    /** TABLES: rules of objects without rows (an import's views) that change with the tables at the cutover, by name. */
    public java.util.Map<String, RuleSpec> alsoRules = new java.util.LinkedHashMap<>();
    public volatile MovePhase phase = MovePhase.PLANNED;
    public String created;
    public String ended;
    /** Why it failed, was cancelled, or is waiting (a shard down, a cutover given up); null otherwise. */
    public String message;
    public volatile boolean cancelRequested;
    public List<TableProgress> tables = new ArrayList<>();
    /** Where catch-up starts on the source's binlog: taken before the copy's snapshot, kept across restarts. */
    public String binlogFile;
    public long binlogPosition;
    /** How far catch-up has applied (a restarted catch-up goes on from here). */
    public String appliedFile;
    public long appliedPosition;
    public long rowsTotal;
    public long rowsCopied;
    public long bytesCopied;
    public long copyMillis;
    public long catchUpEvents;
    public long rowsApplied;
    public long lagEvents;
    public double lagSeconds;
    public long chunksVerified;
    public long chunksRepaired;
    public int cutoverAttempts;
    /** The clients' pause at the cutover that switched: from holding statements to releasing them. */
    public double pauseMillis;
    public double maxHeldMillis;
    public int heldStatements;
    public long rowsCleaned;
    /** Who asked: "cli", "rebalance", "import", "shard-table", "scale". */
    public String origin = "cli";

    public MoveRecord copy() {
        return MoveJson.copy(this);
    }

    public boolean overlaps(String otherKeyspace, io.cleave.router.shardmap.KeySet otherKeys,
                            io.cleave.router.keyspace.ShardFunction function) {
        return kind == MoveKind.KEYS && keyspace.equals(otherKeyspace)
                && io.cleave.router.shardmap.KeySet.parse(keys, function).overlaps(otherKeys);
    }

    /** What moves, as a person reads it: "keys 1-50 of warehouse", "tables shop.orders, shop.item". */
    public String what() {
        if (kind == MoveKind.KEYS) {
            return "keys " + keys + " of " + keyspace;
        }
        StringBuilder b = new StringBuilder(tables.size() == 1 ? "table " : "tables ");
        for (int i = 0; i < tables.size() && i < 4; i++) {
            b.append(i == 0 ? "" : ", ").append(tables.get(i));
        }
        if (tables.size() > 4) {
            b.append(" and ").append(tables.size() - 4).append(" more");
        }
        return tables.isEmpty() ? "no table" : b.toString();
    }
}
