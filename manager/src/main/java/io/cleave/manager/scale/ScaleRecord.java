package io.cleave.manager.scale;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

import java.util.ArrayList;
import java.util.List;

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
    /** Every move the scale started, in order. */
    public List<Long> moves = new ArrayList<>();
    public String started;
    public String ended;
    public String message;

    boolean up() {
        return to > from;
    }
}
