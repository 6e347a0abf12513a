package io.cleave.bench.tpcc.data;

/** C_LAST from a number in [0, 999]: its three decimal digits pick syllables (clause 4.3.2.3). */
public final class LastNames {
    private static final String[] SYLLABLES = {
        "BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"
    };

    private LastNames() {
    }

    public static String of(int number) {
        if (number < 0 || number > 999) {
            throw new IllegalArgumentException("last name number must be in [0, 999]: " + number);
        }
        return SYLLABLES[number / 100] + SYLLABLES[number / 10 % 10] + SYLLABLES[number % 10];
    }
}
