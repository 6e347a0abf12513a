package io.cleave.bench.tpcc.data;

/**
 * The C constants of NURand (clause 2.1.6). The C_LAST constant used at run time must differ from
 * the one used to generate the loaded last names by a delta in [65, 119] other than 96 and 112, so
 * that look-ups by last name at run time hit a differently skewed set of names than the load made.
 */
public record NURandConstants(int cLast, int cId, int olIid) {

    public NURandConstants {
        check("cLast", cLast, 255);
        check("cId", cId, 1023);
        check("olIid", olIid, 8191);
    }

    /** The constants the loader uses, derived from the load seed so that a run can recompute them. */
    public static NURandConstants forLoad(long loadSeed) {
        TpccRandom random = new TpccRandom(loadSeed ^ 0x5DEECE66DL);
        return new NURandConstants(random.uniform(0, 255), random.uniform(0, 1023), random.uniform(0, 8191));
    }

    /** Run-time constants: C_LAST obeys the delta rule against the load's; the others are free. */
    public static NURandConstants forRun(NURandConstants load, TpccRandom random) {
        int cLast;
        do {
            cLast = random.uniform(0, 255);
        } while (!validRunDelta(load.cLast(), cLast));
        return new NURandConstants(cLast, random.uniform(0, 1023), random.uniform(0, 8191));
    }

    public static boolean validRunDelta(int loadCLast, int runCLast) {
        int delta = Math.abs(runCLast - loadCLast);
        return delta >= 65 && delta <= 119 && delta != 96 && delta != 112;
    }

    private static void check(String name, int value, int max) {
        if (value < 0 || value > max) {
            throw new IllegalArgumentException(name + " must be in [0, " + max + "]: " + value);
        }
    }
}
