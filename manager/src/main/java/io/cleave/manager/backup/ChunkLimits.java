package io.cleave.manager.backup;

/** How big a chunk file gets before the next begins: at most {@code rows} rows or about {@code bytes} bytes of values. */
record ChunkLimits(int rows, int bytes) {

    static final ChunkLimits DEFAULT = new ChunkLimits(20_000, 8 << 20);

    /** {@code -Dcleave.backup.chunk_rows=N} for tests that want many chunks from few rows. */
    static ChunkLimits fromSystemProperties() {
        return new ChunkLimits(Integer.getInteger("cleave.backup.chunk_rows", DEFAULT.rows()), DEFAULT.bytes());
    }
}
