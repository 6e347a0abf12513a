package io.cleave.router.sql.lex;

/**
 * Which version comments ({@code /*!50700 ... *}{@code /}, MariaDB's {@code /*M!100500 ... *}{@code /})
 * the shards' server runs as SQL, so the proxy reads a statement as the server does. MariaDB runs
 * {@code /*!NNNNN} up to its own version but skips MySQL 5.7 to 9.x versions (50700-99999), and
 * runs {@code /*M!}; MySQL runs {@code /*!NNNNN} up to its version and takes {@code /*M!} for a
 * plain comment. A comment without a version always runs where it runs at all.
 *
 * @param version the server's version as one number (11.4.2 is 110402, 8.0.36 is 80036)
 */
public record VersionComments(long version, boolean mariaDb) {

    /** The embedded MariaDB the shards run unless configured otherwise. */
    public static final VersionComments DEFAULT = new VersionComments(110400, true);

    /** From a handshake's version string ("11.4.2-MariaDB-log", "5.5.5-10.6.12-MariaDB", "8.0.36"). */
    public static VersionComments of(String serverVersion) {
        boolean mariaDb = serverVersion.contains("MariaDB");
        String v = serverVersion;
        if (mariaDb && v.startsWith("5.5.5-")) {
            // The replication prefix old MariaDB releases put in front of their version.
            v = v.substring(6);
        }
        long[] parts = new long[3];
        int part = 0;
        for (int i = 0; i < v.length() && part < 3; i++) {
            char c = v.charAt(i);
            if (c >= '0' && c <= '9') {
                parts[part] = parts[part] * 10 + (c - '0');
            } else if (c == '.') {
                part++;
            } else {
                break;
            }
        }
        return new VersionComments(parts[0] * 10_000 + parts[1] * 100 + parts[2], mariaDb);
    }

    /**
     * Whether a version comment runs as SQL.
     *
     * @param mariaDbMarker the comment starts {@code /*M!}
     * @param commentVersion the version after the marker, or -1 when there is none
     */
    public boolean runs(boolean mariaDbMarker, long commentVersion) {
        if (mariaDbMarker && !mariaDb) {
            return false;
        }
        if (commentVersion < 0) {
            return true;
        }
        if (commentVersion > version) {
            return false;
        }
        return !mariaDb || mariaDbMarker || commentVersion < 50700 || commentVersion > 99999;
    }
}
