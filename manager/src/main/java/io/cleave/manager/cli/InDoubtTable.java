package io.cleave.manager.cli;

import io.cleave.proxy.server.XaRecovery;

import java.io.PrintWriter;
import java.util.List;

/** Prints in-doubt XA branches for {@code cleave xa list}, {@code xa recover} and {@code status}. */
final class InDoubtTable {

    private static final String ROW = "%-6s %-12s %-24s %s%n";

    private InDoubtTable() {
    }

    /** A header and one row per branch. */
    static void print(List<XaRecovery.InDoubtBranch> branches, PrintWriter out) {
        out.printf(ROW, "SHARD", "COORDINATOR", "RECOVERY", "XID");
        for (XaRecovery.InDoubtBranch b : branches) {
            out.printf(ROW, b.shard(), b.coordinator(), b.decision(), b.xid());
        }
    }

    /** One line per branch, for status. */
    static String line(XaRecovery.InDoubtBranch b) {
        return "shard " + b.shard() + ": " + b.xid() + " (coordinator shard " + b.coordinator() + ", recovery: "
                + b.decision() + ")";
    }

    /** What recovery would do, in words, for the help texts' legend. */
    static final String LEGEND = "RECOVERY: COMMIT (the coordinator recorded the commit), ROLLBACK (it did not),"
            + " COORDINATOR_UNREACHABLE (the operator decides), COMMIT_RUNNING (the proxy is finishing it).";
}
