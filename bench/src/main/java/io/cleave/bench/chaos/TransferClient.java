package io.cleave.bench.chaos;

import io.cleave.bench.jdbc.JdbcTarget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A bank client: transfer after transfer through the proxy, each one transaction (two UPDATEs and
 * two entry INSERTs, then COMMIT), recorded in the ledger with what the client was told. Clients
 * differ as applications do: half open transactions with BEGIN, half run with autocommit off as
 * PyMySQL and mysqlclient do; half use server-side prepared statements, half the text protocol.
 * After some acknowledged transfers it reads them back on another connection: a transfer answered
 * OK must be visible to every statement sent after the answer. A failed transfer is rolled back;
 * with autocommit off and its first statement failed, it is ended with COMMIT, as ORMs end it.
 */
final class TransferClient extends WorkloadClient {
    static final String DEBIT = "UPDATE accounts SET balance = balance - ? WHERE branch = ? AND id = ?";
    static final String CREDIT = "UPDATE accounts SET balance = balance + ? WHERE branch = ? AND id = ?";
    static final String ENTRY = "INSERT INTO entries (branch, transfer, id, delta) VALUES (?, ?, ?, ?)";
    private static final String COUNT_ENTRIES = "SELECT COUNT(*) FROM entries WHERE branch = ? AND transfer = ?";
    private static final int READ_BACK_ONE_IN = 5;

    private final Bank bank;
    private final BankLedger ledger;
    private final boolean explicitBegin;
    private PreparedStatement debit;
    private PreparedStatement credit;
    private PreparedStatement entry;

    TransferClient(int index, ChaosContext context, JdbcTarget proxy, Bank bank, BankLedger ledger) {
        super("bank", index, context, index % 4 < 2 ? proxy.withServerPreparedStatements() : proxy);
        this.bank = bank;
        this.ledger = ledger;
        this.explicitBegin = index % 2 == 0;
    }

    @Override
    void opened(Connection c) throws SQLException {
        c.setAutoCommit(explicitBegin);
        debit = c.prepareStatement(DEBIT);
        credit = c.prepareStatement(CREDIT);
        entry = c.prepareStatement(ENTRY);
    }

    @Override
    void unit() throws SQLException {
        BankTransfer t = bank.draw(random, ledger.nextId());
        Connection c = connection();
        boolean commitSent = false;
        int done = 0;
        try {
            if (explicitBegin) {
                try (Statement s = c.createStatement()) {
                    s.execute("BEGIN");
                }
            }
            if (t.debitFirst()) {
                change(debit, t.amount(), t.from());
                done++;
                change(credit, t.amount(), t.to());
            } else {
                change(credit, t.amount(), t.to());
                done++;
                change(debit, t.amount(), t.from());
            }
            done++;
            insert(entry, t, t.from(), -t.amount());
            insert(entry, t, t.to(), t.amount());
            commitSent = true;
            if (explicitBegin) {
                try (Statement s = c.createStatement()) {
                    s.execute("COMMIT");
                }
            } else {
                c.commit();
            }
        } catch (SQLException e) {
            ledger.record(t, commitSent ? BankLedger.Outcome.UNKNOWN : BankLedger.Outcome.FAILED, context.clock().millis());
            end(c, e, done == 0);
            throw e;
        } catch (MissingAccountException e) {
            ledger.record(t, BankLedger.Outcome.FAILED, context.clock().millis());
            context.violations().add(context.clock().millis(), e.getMessage());
            end(c, new SQLException(e.getMessage()), false);
            return;
        }
        long ack = context.clock().millis();
        ledger.record(t, BankLedger.Outcome.ACKNOWLEDGED, ack);
        if (random.nextInt(READ_BACK_ONE_IN) == 0) {
            readBack(t, ack);
        }
    }

    /** Entries of an acknowledged transfer read on another connection: both must be there. */
    private void readBack(BankTransfer t, long ack) {
        context.counts().readBacks.incrementAndGet();
        try {
            int found = count(t.from().branch(), t.id());
            if (t.acrossBranches()) {
                found += count(t.to().branch(), t.id());
            }
            if (found != 2) {
                missed(ack, "transfer " + t.id() + " (" + t.from() + " -> " + t.to() + ") was acknowledged, but a read"
                    + " sent after the acknowledgement found " + found + " of its 2 entries");
            }
        } catch (SQLException e) {
            context.errors().add(context.clock().millis(), "bank read-back", e);
            readBackLost();
        }
    }

    private int count(int branch, long transfer) throws SQLException {
        try (PreparedStatement ps = readBack().prepareStatement(COUNT_ENTRIES)) {
            ps.setInt(1, branch);
            ps.setLong(2, transfer);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return rs.getInt(1);
            }
        }
    }

    private static void change(PreparedStatement ps, long amount, BankAccount account) throws SQLException {
        ps.setLong(1, amount);
        ps.setInt(2, account.branch());
        ps.setInt(3, account.id());
        int rows = ps.executeUpdate();
        if (rows != 1) {
            throw new MissingAccountException("an UPDATE of account " + account + " through the proxy matched " + rows
                + " rows, not 1");
        }
    }

    private static void insert(PreparedStatement ps, BankTransfer t, BankAccount account, long delta) throws SQLException {
        ps.setInt(1, account.branch());
        ps.setLong(2, t.id());
        ps.setInt(3, account.id());
        ps.setLong(4, delta);
        ps.executeUpdate();
    }

    /**
     * Ends the failed transaction: ROLLBACK, except that a client with autocommit off whose first
     * statement failed sends COMMIT, as ORMs do when nothing of theirs is pending (it commits nothing:
     * the transaction has no write; a proxy that forgot the transaction there leaves it open on the
     * shard, which the checks find). A connection that cannot end it is dropped (the proxy must
     * roll it back).
     */
    private void end(Connection c, SQLException cause, boolean nothingWritten) {
        try {
            if (explicitBegin) {
                try (Statement s = c.createStatement()) {
                    s.execute("ROLLBACK");
                }
            } else if (nothingWritten) {
                c.commit();
            } else {
                c.rollback();
            }
        } catch (SQLException e) {
            cause.addSuppressed(e);
            lost();
        }
    }

    /** An account every run has was not found: a lost row, reported as what a client saw. */
    private static final class MissingAccountException extends RuntimeException {
        MissingAccountException(String message) {
            super(message);
        }
    }
}
