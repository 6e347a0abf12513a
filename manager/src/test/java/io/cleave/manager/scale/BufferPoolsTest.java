package io.cleave.manager.scale;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** When a buffer pool resize is over, by the statuses servers of each kind report after the SET. */
class BufferPoolsTest {

    @Test
    void aServerThatResizesInsideTheSetLeavesTheStatusEmpty() {
        // MariaDB 10.11.12 and later (Debian's 10.11.19): nothing to wait for once the SET returned.
        assertThat(BufferPools.state("", 104_857_600)).isEqualTo(BufferPools.State.DONE);
        assertThat(BufferPools.state(null, 104_857_600)).isEqualTo(BufferPools.State.DONE);
    }

    @Test
    void aBackgroundResizeRunsUntilTheStatusSaysItCompleted() {
        assertThat(BufferPools.state("Requested to resize buffer pool.", 1L << 27)).isEqualTo(BufferPools.State.RUNNING);
        assertThat(BufferPools.state("Withdrawing blocks to be shrunken.", 1L << 27)).isEqualTo(BufferPools.State.RUNNING);
        assertThat(BufferPools.state("Completed resizing buffer pool at 261124 18:00:00.", 1L << 27))
                .isEqualTo(BufferPools.State.DONE);
        assertThat(BufferPools.state("Size did not change (old size = new size = 134217728. Nothing to do.", 1L << 27))
                .isEqualTo(BufferPools.State.DONE);
    }

    @Test
    void aCompletionNamingAnotherSizeIsAnEarlierResizes() {
        assertThat(BufferPools.state("Completed resizing buffer pool from 67108864 to 134217728 bytes.", 268_435_456))
                .isEqualTo(BufferPools.State.RUNNING);
        assertThat(BufferPools.state("Completed resizing buffer pool from 134217728 to 268435456 bytes.", 268_435_456))
                .isEqualTo(BufferPools.State.DONE);
    }

    @Test
    void aFailedResizeEnds() {
        assertThat(BufferPools.state("Resizing buffer pool failed, finished resizing at 261124 18:00:00.", 1L << 27))
                .isEqualTo(BufferPools.State.FAILED);
    }
}
