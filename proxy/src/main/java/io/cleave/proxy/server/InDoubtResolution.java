package io.cleave.proxy.server;

import java.util.ArrayList;
import java.util.List;

/**
 * What an operator's commit or rollback of one in-doubt transaction did. Recovery never guesses,
 * and an operator should not contradict a decision by accident either: a resolution against the
 * coordinator's recorded decision is refused unless forced. When the coordinator cannot be
 * reached there is no decision to contradict, so the operator decides.
 *
 * @param commit  whether the operator asked to commit (else roll back)
 * @param forced  whether the operator overrode a recorded decision
 * @param settled shards whose branch was committed or rolled back
 * @param failed  shards whose branch could not be settled (the shard refused or was unreachable)
 * @param message why nothing was done (UNKNOWN_XID, REFUSED), or what went wrong (FAILED); null when SETTLED
 */
public record InDoubtResolution(String xid, boolean commit, Outcome outcome, boolean forced, List<Integer> settled,
                                List<Integer> failed, String message) {

    public enum Outcome {
        /** Every prepared branch of the transaction was settled as asked. */
        SETTLED,
        /** No reachable shard has a prepared branch with that id. */
        UNKNOWN_XID,
        /** Asked against the recorded decision without force, or while the proxy is committing it. */
        REFUSED,
        /** Some branches could not be settled; {@link #settled()} says which were. */
        FAILED
    }

    public InDoubtResolution {
        settled = List.copyOf(settled);
        failed = List.copyOf(failed);
    }

    /**
     * Why the operator's commit ({@code commit}) or rollback of {@code xid}'s prepared branches must
     * not go ahead, or null when it may.
     */
    static InDoubtResolution refusal(String xid, List<XaRecovery.InDoubtBranch> branches, boolean commit, boolean force) {
        if (branches.isEmpty()) {
            return refused(xid, commit, Outcome.UNKNOWN_XID, "transaction " + xid + " has no prepared branch on any"
                    + " reachable shard: it is settled already, or the id is wrong");
        }
        List<Integer> shards = shardsOf(branches);
        XaRecovery.InDoubtBranch b = branches.get(0);
        for (XaRecovery.InDoubtBranch branch : branches) {
            if (branch.decision() == XaRecovery.Decision.COMMIT_RUNNING) {
                // Even forced: the coordinator is about to decide, and would then disagree with the operator.
                return refused(xid, commit, Outcome.REFUSED, "transaction " + xid + " is being committed by the proxy"
                        + " right now; it settles its branches itself");
            }
        }
        if (force) {
            return null;
        }
        for (XaRecovery.InDoubtBranch branch : branches) {
            if (branch.decision() == XaRecovery.Decision.COMMIT && !commit) {
                return refused(xid, commit, Outcome.REFUSED, "coordinator shard " + b.coordinator()
                        + " recorded the commit of " + xid + ": its other shards committed, so rolling back the"
                        + " branches on shards " + shards + " would leave the transaction half applied (force overrides this refusal)");
            }
            if (branch.decision() == XaRecovery.Decision.ROLLBACK && commit) {
                return refused(xid, commit, Outcome.REFUSED, "coordinator shard " + b.coordinator()
                        + " has no commit decision for " + xid + ": the transaction did not commit there, so"
                        + " committing the branches on shards " + shards + " would apply only part of it (force overrides this refusal)");
            }
        }
        return null;
    }

    private static InDoubtResolution refused(String xid, boolean commit, Outcome outcome, String message) {
        return new InDoubtResolution(xid, commit, outcome, false, List.of(), List.of(), message);
    }

    /** Whether the resolution went against the decision recovery would take (only possible forced). */
    static boolean againstDecision(List<XaRecovery.InDoubtBranch> branches, boolean commit) {
        XaRecovery.Decision contrary = commit ? XaRecovery.Decision.ROLLBACK : XaRecovery.Decision.COMMIT;
        return branches.stream().anyMatch(b -> b.decision() == contrary);
    }

    static List<Integer> shardsOf(List<XaRecovery.InDoubtBranch> branches) {
        List<Integer> shards = new ArrayList<>();
        for (XaRecovery.InDoubtBranch b : branches) {
            shards.add(b.shard());
        }
        return shards;
    }
}
