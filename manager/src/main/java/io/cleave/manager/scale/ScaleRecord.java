package io.cleave.manager.scale;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.concurrent.CopyOnWriteArrayList;

/** A scale as journaled in {@code state/scale.json}, replaced durably at every phase. */
@JsonIgnoreProperties(ignoreUnknown = true)
public final class ScaleRecord {
    public int from;
    public int to;
    public ScalePhase phase;
    /** Each shard's buffer pool once the scale is done. */
    public long bufferPoolBytes;
    /** The move adding the new shards (scale up), reserved when the scale starts. */
    public long addingMove;
    /**
     * Every move the scale started, in order. The scaler adds to it while the admin API and the
     * metrics read it: a copy-on-write list (also as read back from the journal) lets them.
     */
    public CopyOnWriteArrayList<Long> moves = new CopyOnWriteArrayList<>();
    public String started;
    public String ended;
    public String message;

    boolean up() {
        return to > from;
    }
}
