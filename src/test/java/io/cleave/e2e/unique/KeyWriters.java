package io.cleave.e2e.unique;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Two clients on a table {@code (id, email UNIQUE, name)} whose rows {@code 1..first-1} hold
 * {@code v<id>@x}: one inserts new rows from {@code first} on (every one must go in), the other
 * inserts the value of a committed row under another id (every one must get exactly the server's
 * 1062, {@code Duplicate entry 'v<j>@x' for key 'email'}) and reads the value back (one row, the
 * right one). Duplicates refused are counted apart after {@link #mark()}, so a test can prove
 * attempts reached the table after a cutover.
 */
final class KeyWriters implements AutoCloseable {

    interface Connect {
        Connection open() throws SQLException;
    }

    private final AtomicBoolean stop = new AtomicBoolean();
    private final AtomicInteger committed;
    private final AtomicInteger refusedBefore = new AtomicInteger();
    private final AtomicInteger refusedAfter = new AtomicInteger();
    private volatile boolean marked;
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    private final CompletableFuture<Void> inserts;
    private final CompletableFuture<Void> duplicates;

    KeyWriters(Connect connect, String table, int first) {
        committed = new AtomicInteger(first - 1);
        inserts = CompletableFuture.runAsync(() -> {
            try (Connection c = connect.open(); Statement s = c.createStatement()) {
                for (int i = first; !stop.get(); i++) {
                    try {
                        s.executeUpdate("INSERT INTO " + table + " VALUES (" + i + ", 'v" + i + "@x', 'n')");
                        committed.set(i);
                    } catch (SQLException e) {
                        failures.add("valid insert " + i + " refused: " + e.getErrorCode() + " " + e.getMessage());
                    }
                }
            } catch (SQLException e) {
                failures.add("inserting client: " + e.getMessage());
            }
        });
        duplicates = CompletableFuture.runAsync(() -> {
            try (Connection c = connect.open(); Statement s = c.createStatement()) {
                while (!stop.get()) {
                    boolean after = marked;
                    int j = 1 + ThreadLocalRandom.current().nextInt(committed.get());
                    try {
                        s.executeUpdate("INSERT INTO " + table + " VALUES (" + (1_000_000 + j) + ", 'v" + j + "@x', 'dup')");
                        failures.add("duplicate v" + j + "@x went in");
                    } catch (SQLException e) {
                        if (e.getErrorCode() == 1062 && e.getMessage().equals("Duplicate entry 'v" + j + "@x' for key 'email'")) {
                            (after ? refusedAfter : refusedBefore).incrementAndGet();
                        } else {
                            failures.add("duplicate v" + j + "@x: " + e.getErrorCode() + " " + e.getMessage());
                        }
                    }
                    try (ResultSet rs = s.executeQuery("SELECT id FROM " + table + " WHERE email = 'v" + j + "@x'")) {
                        List<Integer> ids = new ArrayList<>();
                        while (rs.next()) {
                            ids.add(rs.getInt(1));
                        }
                        if (!ids.equals(List.of(j))) {
                            failures.add("reading v" + j + "@x by the key gave " + ids);
                        }
                    }
                }
            } catch (Exception e) {
                failures.add("duplicating client: " + e);
            }
        });
    }

    /** From now on refused duplicates count as after the change under test. */
    void mark() {
        marked = true;
    }

    int committed() {
        return committed.get();
    }

    int refusedBefore() {
        return refusedBefore.get();
    }

    int refusedAfter() {
        return refusedAfter.get();
    }

    List<String> failures() {
        return List.copyOf(failures);
    }

    /** Waits until {@code n} more rows were inserted (the clients are under way), failing early on a failure. */
    void awaitInserts(int n) throws InterruptedException {
        int target = committed.get() + n;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (committed.get() < target && failures.isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
    }

    @Override
    public void close() throws Exception {
        stop.set(true);
        CompletableFuture.allOf(inserts, duplicates).get(60, TimeUnit.SECONDS);
    }
}
