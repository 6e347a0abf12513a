package io.cleave.proxy.server;

/** Points in a distributed commit where a test can stop the coordinator (fault injection). */
public enum CommitStep {
    /** Before any branch is prepared. */
    BEFORE_PREPARE,
    /** Every writing branch is prepared; the decision is not recorded yet. */
    AFTER_PREPARE,
    /** The coordinator committed the decision; no branch has committed. */
    AFTER_DECISION,
    /** The first branch committed, the others not yet. */
    DURING_COMMIT
}
