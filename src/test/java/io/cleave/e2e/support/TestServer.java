package io.cleave.e2e.support;

/**
 * The server binary the end-to-end tests run, named explicitly so that a server installed on the
 * host (a mariadbd on PATH) never changes what is tested: {@code embedded} (the default) or the path
 * of a mysqld/mariadbd, from the system property {@value #PROPERTY} (set by the e2e module's
 * failsafe executions, one per server).
 */
public final class TestServer {

    public static final String PROPERTY = "cleave.it.server";

    /**
     * The tag of the test classes a second server runs by default (lifecycle, proxy, routing,
     * cross-shard transactions, deadlocks, moves); {@code -Dservers=all} runs every class there.
     */
    public static final String MATRIX = "server-matrix";

    /** The tag of matrix classes the embedded server skips when a second server runs them ({@link SecondServerOnly}). */
    public static final String SECOND_ONLY = "second-server-only";

    private TestServer() {
    }

    /** The value for {@code server.binary} in a test home's config. */
    public static String binary() {
        String value = System.getProperty(PROPERTY, "").trim();
        return value.isEmpty() ? "embedded" : value;
    }
}
