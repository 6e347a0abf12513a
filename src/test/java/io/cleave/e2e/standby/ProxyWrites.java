package io.cleave.e2e.standby;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;

/** Single writes through a home's proxy, as the failover tests probe who serves: the new primary, or a fenced one. */
final class ProxyWrites {

    private static final String WRITE = "UPDATE accounts SET balance = balance + 0 WHERE branch = 1 AND id = 1";

    private ProxyWrites() {
    }

    /**
     * Writes through the proxy at {@code proxy} (host:port, root with {@code password}) until one is served; the
     * milliseconds from {@code lost} (a System.nanoTime) to it. {@code state} says what the home is, should none be.
     */
    static long awaitFirstWrite(String proxy, String password, long lost, Supplier<String> state) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        SQLException last = null;
        while (System.nanoTime() < deadline) {
            try (Connection c = DriverManager.getConnection("jdbc:mysql://" + proxy
                    + "/bank?sslMode=DISABLED&allowPublicKeyRetrieval=true&connectTimeout=1000&socketTimeout=5000",
                    "root", password); Statement s = c.createStatement()) {
                s.execute(WRITE);
                return (System.nanoTime() - lost) / 1_000_000;
            } catch (SQLException e) {
                last = e;
                Thread.sleep(20);
            }
        }
        throw new AssertionError("no write served through " + proxy + " within 90 s: " + state.get(), last);
    }

    /**
     * Logs in to the proxy and writes: "accepted", or the error (code first). A fenced proxy refuses the driver's own
     * first statements at login already, with the same error.
     */
    static String writeThrough(String proxy, String password) {
        try (Connection c = DriverManager.getConnection("jdbc:mysql://" + proxy + "/bank?sslMode=DISABLED"
                + "&allowPublicKeyRetrieval=true&connectTimeout=1000&socketTimeout=5000", "root", password);
             Statement s = c.createStatement()) {
            s.execute(WRITE);
            return "accepted";
        } catch (SQLException e) {
            return e.getErrorCode() + " (" + e.getSQLState() + ") " + e.getMessage();
        }
    }

    /** Writes through the proxy until it refuses with the fence's error (1290) matching {@code matching}; its text. */
    static String awaitRefusal(String proxy, String password, Predicate<String> matching) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        String last = null;
        while (System.nanoTime() < deadline) {
            last = writeThrough(proxy, password);
            if (last.startsWith("1290") && (matching == null || matching.test(last))) {
                return last;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the proxy at " + proxy + " did not refuse as fenced within 30 s; last: " + last);
    }
}
