package io.cleave.e2e.backup;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * MariaDB sequences a backup must carry, used through the proxy as an application does: one without
 * a cache (each value it hands out is written and binlogged) that a table's key draws from by
 * default, one with the server's default cache of 1000. {@link #draw} hands values out and returns the
 * highest; a restored home must hand out only values above every one drawn before its point.
 */
final class BackedUpSequences {

    private BackedUpSequences() {
    }

    static void create(Connection proxy) throws SQLException {
        try (Statement s = proxy.createStatement()) {
            s.execute("CREATE SEQUENCE bank.ticket_seq START WITH 1 INCREMENT BY 1 NOCACHE");
            s.execute("CREATE SEQUENCE bank.cached_seq");
            s.execute("CREATE TABLE bank.tickets (id BIGINT PRIMARY KEY DEFAULT NEXTVAL(bank.ticket_seq),"
                    + " note VARCHAR(20) NOT NULL)");
        }
    }

    /** The highest value each sequence handed out. */
    record Drawn(long ticket, long cached) {
    }

    /** Draws {@code n} values from each sequence (the key sequence's through rows of tickets); the highest drawn. */
    static Drawn draw(Connection proxy, int n) throws SQLException {
        long ticket = 0;
        long cached = 0;
        try (Statement s = proxy.createStatement()) {
            for (int i = 0; i < n; i++) {
                s.execute("INSERT INTO bank.tickets (note) VALUES ('drawn')");
                ticket = Math.max(ticket, single(s, "SELECT MAX(id) FROM bank.tickets"));
                cached = Math.max(cached, single(s, "SELECT NEXTVAL(bank.cached_seq)"));
            }
        }
        return new Drawn(ticket, cached);
    }

    /** Both sequences of the restored home hand out values above those drawn before its point; a ticket's key too. */
    static void assertNoValueRepeats(RestoredHome h, Drawn before, String what) throws SQLException {
        try (Connection c = h.proxy("bank"); Statement s = c.createStatement()) {
            assertThat(single(s, "SELECT NEXTVAL(ticket_seq)")).as("%s: next value of ticket_seq", what)
                    .isGreaterThan(before.ticket());
            assertThat(single(s, "SELECT NEXTVAL(cached_seq)")).as("%s: next value of cached_seq", what)
                    .isGreaterThan(before.cached());
            s.execute("INSERT INTO tickets (note) VALUES ('restored')");
            assertThat(single(s, "SELECT id FROM tickets WHERE note = 'restored'")).as("%s: a new ticket's key", what)
                    .isGreaterThan(before.ticket());
        }
    }

    private static long single(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
