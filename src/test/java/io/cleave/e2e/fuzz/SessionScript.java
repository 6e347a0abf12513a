package io.cleave.e2e.fuzz;

import io.cleave.e2e.support.RawMysqlClient;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A logged-in connection driven through a seeded sequence of commands with state: transactions
 * over one and two shards, prepared statements with cursors and long data, COM_CHANGE_USER,
 * COM_RESET_CONNECTION, pipelined bursts, now and then a damaged packet; then one of the ways a
 * connection can end (COM_QUIT, end of stream, close, reset, mid-statement, mid-result,
 * mid-COMMIT, during a pipelined burst). Answers to well-formed commands are read in full; after
 * a damaged packet the connection only takes more damage and ends by closing its side.
 */
final class SessionScript {

    /** Largest long data per parameter the fuzzed proxy takes (its max_allowed_packet). */
    static final int MAX_ALLOWED_PACKET = 64 * 1024;

    private static final String[] PREPARED = {
        "SELECT v, s FROM items WHERE id = ?",
        "SELECT id, v FROM items WHERE id BETWEEN ? AND ?",
        "UPDATE items SET s = ? WHERE id = ?",
        "SELECT LENGTH(?)",
        "COMMIT",
    };

    private record Prepared(long id, int params) {
    }

    private final Random random;
    private final Mutator mutator;
    private final FuzzConnection conn;
    private final List<Prepared> statements = new ArrayList<>();
    private boolean damaged;

    SessionScript(Random random, FuzzConnection conn) {
        this.random = random;
        this.mutator = new Mutator(random);
        this.conn = conn;
    }

    void run(int steps) throws IOException {
        for (int i = 0; i < steps && !conn.serverClosed(); i++) {
            if (damaged) {
                damage();
            } else {
                step();
            }
        }
        end();
    }

    private void step() throws IOException {
        int pick = random.nextInt(100);
        if (pick < 40) {
            command(Commands.query(sql()), FuzzConnection.Expect.RESULT);
        } else if (pick < 48) {
            prepare();
        } else if (pick < 60) {
            execute();
        } else if (pick < 64) {
            command(Commands.fetch(someStatement(), 1 + random.nextInt(50)), FuzzConnection.Expect.ROWS);
        } else if (pick < 70) {
            longData();
        } else if (pick < 73) {
            command(Commands.statement(Commands.STMT_RESET, someStatement()), FuzzConnection.Expect.RESULT);
        } else if (pick < 75) {
            long id = someStatement();
            statements.removeIf(s -> s.id() == id);
            command(Commands.statement(Commands.STMT_CLOSE, id), FuzzConnection.Expect.NOTHING);
        } else if (pick < 78) {
            changeUser();
        } else if (pick < 81) {
            statements.clear();
            command(Commands.simple(Commands.RESET_CONNECTION), FuzzConnection.Expect.RESULT);
        } else if (pick < 86) {
            other();
        } else if (pick < 93) {
            burst(false);
        } else {
            damage();
        }
    }

    private void command(byte[] payload, FuzzConnection.Expect expect) throws IOException {
        conn.send(0, payload);
        conn.read(expect);
    }

    private String key() {
        return Integer.toString(1 + random.nextInt(200));
    }

    /** A statement of the kinds applications send, over one shard or both. */
    private String sql() {
        switch (random.nextInt(20)) {
            case 0: return "SELECT v, s FROM items WHERE id = " + key();
            case 1: return "SELECT id, v FROM items WHERE id IN (" + key() + ", " + key() + ") ORDER BY id";
            case 2: return "SELECT COUNT(*), SUM(v) FROM items";
            case 3: return "UPDATE items SET v = v + 1 WHERE id = " + key();
            case 4: return "UPDATE items SET v = v + 1 WHERE id IN (" + key() + ", " + key() + ")";
            case 5: return random.nextBoolean() ? "BEGIN" : "START TRANSACTION";
            case 6: return "COMMIT";
            case 7: return "ROLLBACK";
            case 8: return "SET autocommit = " + random.nextInt(2);
            case 9: return "SELECT v FROM items WHERE id = " + key() + " FOR UPDATE";
            case 10: return "SELECT id, v, s FROM items ORDER BY id";
            case 11: return random.nextBoolean() ? "SAVEPOINT sp" : "ROLLBACK TO SAVEPOINT sp";
            case 12: return random.nextBoolean() ? "SET @x = " + key() : "SELECT @x";
            case 13: return random.nextBoolean() ? "CREATE TEMPORARY TABLE IF NOT EXISTS tmp (a INT)"
                    : "DROP TEMPORARY TABLE IF EXISTS tmp";
            case 14: return random.nextBoolean() ? "SELECT GET_LOCK('fz" + random.nextInt(5) + "', 0)"
                    : "SELECT RELEASE_LOCK('fz" + random.nextInt(5) + "')";
            case 15: return "USE fuzz";
            case 16: return "SELECT 1; SELECT id FROM items WHERE id = " + key();
            case 17: return "SHOW WARNINGS";
            case 18: return "INSERT INTO items (id, v, s) VALUES (" + key() + ", 0, 'dup')";
            default: return "SELECT id, v FROM items WHERE id BETWEEN " + key() + " AND " + key();
        }
    }

    private void prepare() throws IOException {
        conn.send(0, Commands.text(Commands.STMT_PREPARE, PREPARED[random.nextInt(PREPARED.length)]));
        byte[] ok = conn.read(FuzzConnection.Expect.PREPARE);
        if (ok != null && RawMysqlClient.isOk(ok) && ok.length >= 12) {
            long id = (ok[1] & 0xffL) | (ok[2] & 0xffL) << 8 | (ok[3] & 0xffL) << 16 | (ok[4] & 0xffL) << 24;
            statements.add(new Prepared(id, (ok[7] & 0xff) | (ok[8] & 0xff) << 8));
        }
    }

    private Prepared somePrepared() {
        if (statements.isEmpty() || random.nextInt(10) == 0) {
            // An id the session may not have: the proxy answers 1243.
            return new Prepared(1 + random.nextInt(40), random.nextInt(3));
        }
        return statements.get(random.nextInt(statements.size()));
    }

    private long someStatement() {
        return somePrepared().id();
    }

    private void execute() throws IOException {
        Prepared s = somePrepared();
        Object[] params = new Object[s.params()];
        for (int i = 0; i < params.length; i++) {
            int kind = random.nextInt(10);
            params[i] = kind < 6 ? (Object) (long) (1 + random.nextInt(200)) : kind < 9 ? "v" + random.nextInt(100) : null;
        }
        command(Commands.execute(s.id(), random.nextInt(3) == 0, params), FuzzConnection.Expect.RESULT);
    }

    /** Long data for a parameter, now and then past max_allowed_packet; sometimes executed right away. */
    private void longData() throws IOException {
        Prepared s = somePrepared();
        int chunks = 1 + random.nextInt(3);
        boolean big = random.nextInt(8) == 0;
        for (int c = 0; c < chunks; c++) {
            byte[] data = new byte[big ? MAX_ALLOWED_PACKET / 2 + random.nextInt(MAX_ALLOWED_PACKET / 2)
                    : random.nextInt(2000)];
            java.util.Arrays.fill(data, (byte) ('a' + random.nextInt(26)));
            command(Commands.longData(s.id(), random.nextInt(Math.max(1, s.params())), data), FuzzConnection.Expect.NOTHING);
        }
        if (random.nextBoolean() && s.params() > 0) {
            Object[] params = new Object[s.params()];
            java.util.Arrays.fill(params, Commands.LONG_DATA);
            command(Commands.execute(s.id(), false, params), FuzzConnection.Expect.RESULT);
        }
    }

    /** COM_CHANGE_USER back to root (the session starts over), or to an unknown user (1045, closed). */
    private void changeUser() throws IOException {
        boolean valid = random.nextInt(6) != 0;
        statements.clear();
        command(conn.client().changeUserPayload(valid ? "root" : "nobody", "", valid ? "fuzz" : ""),
                FuzzConnection.Expect.RESULT);
    }

    private void other() throws IOException {
        switch (random.nextInt(6)) {
            case 0:
                command(Commands.simple(Commands.PING), FuzzConnection.Expect.RESULT);
                break;
            case 1:
                command(Commands.text(Commands.INIT_DB, random.nextBoolean() ? "fuzz" : "no_such_db"),
                        FuzzConnection.Expect.RESULT);
                break;
            case 2:
                command(Commands.fieldList("items"), FuzzConnection.Expect.FIELDS);
                break;
            case 3:
                command(Commands.simple(Commands.STATISTICS), FuzzConnection.Expect.ONE_PACKET);
                break;
            case 4:
                // Answered with a bare EOF packet, as servers do.
                command(Commands.setOption(random.nextBoolean()), FuzzConnection.Expect.ONE_PACKET);
                break;
            default:
                // A command code no server knows.
                command(new byte[] {(byte) (0x20 + random.nextInt(0xdf))}, FuzzConnection.Expect.RESULT);
                break;
        }
    }

    /** Several well-formed commands at once, answers read afterwards (or never, when the burst ends the connection). */
    private void burst(boolean thenClose) throws IOException {
        int n = 3 + random.nextInt(6);
        List<FuzzConnection.Expect> expected = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (random.nextInt(4) == 0 && !statements.isEmpty()) {
                Prepared s = statements.get(random.nextInt(statements.size()));
                Object[] params = new Object[s.params()];
                java.util.Arrays.fill(params, (long) (1 + random.nextInt(200)));
                conn.send(0, Commands.execute(s.id(), false, params));
            } else {
                conn.send(0, Commands.query(sql()));
            }
            expected.add(FuzzConnection.Expect.RESULT);
        }
        if (thenClose) {
            return;
        }
        for (FuzzConnection.Expect e : expected) {
            conn.read(e);
        }
    }

    /** A damaged packet: a mutated command, a wrong sequence id, or noise. Its answer is not predictable. */
    private void damage() throws IOException {
        damaged = true;
        int pick = random.nextInt(10);
        if (pick < 6) {
            byte[] valid = random.nextBoolean() ? Commands.query(sql())
                    : Commands.execute(someStatement(), random.nextBoolean(), 1L, "x");
            conn.send(0, mutator.mutate(valid));
        } else if (pick < 8) {
            conn.send(mutator.wrongSequence(0), Commands.query(sql()));
        } else {
            conn.sendRaw(mutator.noise(64));
        }
        conn.drain();
    }

    private void end() throws IOException {
        if (conn.serverClosed()) {
            return;
        }
        int pick = damaged ? random.nextInt(3) : random.nextInt(9);
        switch (pick) {
            case 0:
                conn.endAndAwaitClose(false);
                return;
            case 1:
                conn.close();
                return;
            case 2:
                conn.abort();
                return;
            case 3:
                conn.endAndAwaitClose(true);
                return;
            case 4:
                // Mid-statement: a write (in a transaction, when one is open) and gone.
                conn.send(0, Commands.query("UPDATE items SET v = v + 1 WHERE id IN (" + key() + ", " + key() + ")"));
                closeSomehow();
                return;
            case 5:
                // Mid-result: the first packets of a result of 200 rows, then gone.
                conn.send(0, Commands.query("SELECT id, v, s FROM items ORDER BY id"));
                conn.next();
                closeSomehow();
                return;
            case 6:
                midCommit();
                return;
            case 7:
                burst(true);
                closeSomehow();
                return;
            default:
                conn.endAndAwaitClose(true);
        }
    }

    /** A transaction writing on both shards, its COMMIT sent, and the client gone before the answer. */
    private void midCommit() throws IOException {
        command(Commands.query("BEGIN"), FuzzConnection.Expect.RESULT);
        command(Commands.query("UPDATE items SET v = v + 1 WHERE id = " + (1 + random.nextInt(99))),
                FuzzConnection.Expect.RESULT);
        command(Commands.query("UPDATE items SET v = v + 1 WHERE id = " + (100 + random.nextInt(100))),
                FuzzConnection.Expect.RESULT);
        if (!conn.serverClosed()) {
            conn.send(0, Commands.query("COMMIT"));
            closeSomehow();
        }
    }

    private void closeSomehow() throws IOException {
        if (random.nextBoolean()) {
            conn.close();
        } else {
            conn.abort();
        }
    }
}
