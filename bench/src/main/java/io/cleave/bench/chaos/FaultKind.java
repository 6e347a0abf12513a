package io.cleave.bench.chaos;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** The faults the soak injects, each with the name {@code --faults} takes and its weight in a schedule. */
public enum FaultKind {
    /** SIGKILL of the daemon (the proxy and the mover with it), started again at once. */
    DAEMON_KILL(3, true),
    /** SIGSTOP of the daemon for a few seconds, then SIGCONT. */
    DAEMON_STOP(2, true),
    /** SIGKILL of one shard's server; the daemon's supervisor starts it again. */
    SHARD_KILL(3, true),
    /** SIGSTOP of one shard's server for a few seconds, then SIGCONT. */
    SHARD_STOP(2, true),
    /** A client closes its socket (TCP reset) while a statement of its transfer runs. */
    CLIENT_VANISH_STATEMENT(3, false),
    /** A client closes its socket (TCP reset) right after sending COMMIT, before any answer. */
    CLIENT_VANISH_COMMIT(3, false),
    /** {@code cleave move} of bank branches, kv buckets or a warehouse to another shard. */
    MOVE(4, false),
    /** {@code cleave move --cancel} of the move under way. */
    MOVE_CANCEL(2, false),
    /** {@code cleave rebalance}. */
    REBALANCE(1, false),
    /** {@code cleave scale} to one shard more. */
    SCALE_UP(1, false),
    /** {@code cleave scale} to one shard fewer. */
    SCALE_DOWN(1, false),
    /** {@code cleave shard-table} of a table living on one shard: to another shard, sharded by key, or a reference table. */
    SHARD_TABLE(2, false);

    private final int weight;
    private final boolean disruptive;

    FaultKind(int weight, boolean disruptive) {
        this.weight = weight;
        this.disruptive = disruptive;
    }

    /** How many times more often than a weight-1 kind a schedule draws it. */
    public int weight() {
        return weight;
    }

    /**
     * Whether it takes a process away (killed or stopped): while one settles, what the proxy promises
     * about reads after an acknowledgement has documented exceptions (a branch left prepared).
     */
    public boolean disruptive() {
        return disruptive;
    }

    /** The name on the command line and in logs: {@code daemon-kill}, {@code move-cancel}, ... */
    public String label() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    public static FaultKind ofLabel(String label) {
        for (FaultKind k : values()) {
            if (k.label().equals(label.trim().toLowerCase(Locale.ROOT))) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown fault '" + label + "'; known: " + String.join(", ", labels(EnumSet.allOf(FaultKind.class))));
    }

    /** "all", or a comma-separated list of labels, each optionally prefixed with '-' to leave it out of "all". */
    public static Set<FaultKind> parseList(String list) {
        Set<FaultKind> kinds = EnumSet.noneOf(FaultKind.class);
        List<FaultKind> without = new ArrayList<>();
        for (String item : list.split(",")) {
            String name = item.trim();
            if (name.isEmpty()) {
                continue;
            }
            if (name.equals("all")) {
                kinds.addAll(EnumSet.allOf(FaultKind.class));
            } else if (name.startsWith("-")) {
                without.add(ofLabel(name.substring(1)));
            } else {
                kinds.add(ofLabel(name));
            }
        }
        if (kinds.isEmpty() && !without.isEmpty()) {
            kinds.addAll(EnumSet.allOf(FaultKind.class));
        }
        without.forEach(kinds::remove);
        if (kinds.isEmpty()) {
            throw new IllegalArgumentException("no fault kind left in '" + list + "'");
        }
        return kinds;
    }

    public static List<String> labels(Set<FaultKind> kinds) {
        return kinds.stream().sorted().map(FaultKind::label).toList();
    }
}
