package io.cleave.manager.standby;

/** The steps of a switchover, in order: a failure names the one it stopped at. */
public enum SwitchoverStep {
    /** The pair is checked: both homes, every replica running and close behind. Nothing is changed yet. */
    CHECK("checking the pair"),
    /** The proxy holds new statements and waits for open transactions and session state to end. */
    HOLD("holding statements while open transactions end"),
    /** This home's shards become read-only. */
    READ_ONLY("making this home's shards read-only"),
    /** Each shard's GTID position is read, and nothing may be left prepared. */
    POSITIONS("reading this home's GTID positions"),
    /** The standby applies up to those positions and becomes the primary. */
    PROMOTE_STANDBY("promoting the standby"),
    /** The proxy routes every shard to the new primary's and releases the held statements. */
    FORWARD("routing the proxy to the new primary"),
    /** This home's shards replicate the new primary's. */
    REPLICATE("making this home's shards replicas of the new primary");

    private final String what;

    SwitchoverStep(String what) {
        this.what = what;
    }

    /** What the step does, for messages. */
    public String what() {
        return what;
    }
}
