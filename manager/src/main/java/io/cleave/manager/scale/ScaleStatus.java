package io.cleave.manager.scale;

import java.util.List;

/**
 * What {@code cleave scale --status} shows.
 *
 * @param state      starting, resizing, adding, spreading, draining, shrinking, done, failed
 * @param movesDone  moves of the scale that ended
 * @param bufferPool each shard's buffer pool at the end, in bytes
 */
public record ScaleStatus(String state, int from, int to, long bufferPool, List<Long> moves, int movesDone,
                          String message, String started, String ended) {
}
