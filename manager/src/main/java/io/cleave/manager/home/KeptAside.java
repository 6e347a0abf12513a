package io.cleave.manager.home;

import java.nio.file.Path;

/**
 * The directory of a home, {@code errant/}, where {@code cleave rejoin --rebuild} keeps the old home it rebuilt (its
 * shards' datadirs with the transactions the new primary lacked): nothing of Cleave deletes it, and a restore into the
 * home leaves it alone.
 */
public final class KeptAside {

    public static final String DIR = "errant";

    private KeptAside() {
    }

    /** Whether {@code entry}, of a home's directory, is that directory. */
    public static boolean isKept(Path entry) {
        return entry.getFileName().toString().equals(DIR);
    }
}
