package io.cleave.bench.tpcc.load;

/**
 * What to load: warehouses firstWarehouse .. firstWarehouse + warehouses - 1 (a range lets each
 * shard be loaded directly with its own warehouses), on a number of parallel threads. The seed
 * fixes the data and the NURand C_LAST constant a run must know (see NURandConstants.forLoad).
 */
public record LoadOptions(int warehouses, int firstWarehouse, int threads, boolean dropSchema, long seed) {
    public static final long DEFAULT_SEED = 20_240_601L;

    public LoadOptions {
        if (warehouses < 1) {
            throw new IllegalArgumentException("warehouses must be at least 1: " + warehouses);
        }
        if (firstWarehouse < 1) {
            throw new IllegalArgumentException("firstWarehouse must be at least 1: " + firstWarehouse);
        }
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1: " + threads);
        }
    }

    public static LoadOptions of(int warehouses) {
        return new LoadOptions(warehouses, 1, Math.max(2, Runtime.getRuntime().availableProcessors()), false,
            DEFAULT_SEED);
    }

    public LoadOptions withDropSchema(boolean drop) {
        return new LoadOptions(warehouses, firstWarehouse, threads, drop, seed);
    }

    public LoadOptions withThreads(int count) {
        return new LoadOptions(warehouses, firstWarehouse, count, dropSchema, seed);
    }

    public int lastWarehouse() {
        return firstWarehouse + warehouses - 1;
    }
}
