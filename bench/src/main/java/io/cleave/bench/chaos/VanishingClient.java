package io.cleave.bench.chaos;

import io.cleave.bench.jdbc.JdbcTarget;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.SplittableRandom;

/**
 * A bank client that vanishes: it starts a transfer through the proxy and closes its socket with a
 * TCP reset either right after sending one of the transfer's statements (at times one that waits
 * on a row lock another connection holds, so it is still running in the shard) or right after
 * sending COMMIT. The transfer goes to the ledger as failed (it must leave nothing) or unknown
 * (whole or nothing); the checks then also find whether anything of it stayed open.
 */
final class VanishingClient {
    private final JdbcTarget proxy;
    private final Bank bank;
    private final BankLedger ledger;
    private final RunClock clock;

    VanishingClient(JdbcTarget proxy, Bank bank, BankLedger ledger, RunClock clock) {
        this.proxy = proxy.withParameter("socketFactory=" + ResettingSocketFactory.class.getName());
        this.bank = bank;
        this.ledger = ledger;
        this.clock = clock;
    }

    /** Runs the transfer and vanishes; returns what happened, for the fault log. */
    String vanish(ScheduledFault fault, boolean atCommit) throws SQLException, InterruptedException {
        SplittableRandom random = new SplittableRandom(fault.draw());
        BankTransfer t = bank.draw(random, ledger.nextId());
        boolean explicitBegin = fault.pick(1, 2) == 0;
        boolean lockWait = !atCommit && fault.pick(2, 2) == 0;
        Connection holder = null;
        Connection c = proxy.getConnection();
        ResettingSocketFactory.ResettableSocket socket = ResettingSocketFactory.lastOnThisThread();
        try {
            if (explicitBegin) {
                try (Statement s = c.createStatement()) {
                    s.execute("BEGIN");
                }
            } else {
                c.setAutoCommit(false);
            }
            update(c, TransferClient.DEBIT, t.amount(), t.from());
            if (lockWait) {
                holder = proxy.getConnection();
                holder.setAutoCommit(false);
                try (PreparedStatement ps = holder.prepareStatement(
                    "SELECT balance FROM accounts WHERE branch = ? AND id = ? FOR UPDATE")) {
                    ps.setInt(1, t.to().branch());
                    ps.setInt(2, t.to().id());
                    ps.executeQuery().close();
                }
            }
            if (!atCommit) {
                socket.resetAfterNextCommand();
                update(c, TransferClient.CREDIT, t.amount(), t.to());
                return unexpected(t, "its UPDATE was answered", BankLedger.Outcome.FAILED);
            }
            update(c, TransferClient.CREDIT, t.amount(), t.to());
            entry(c, t, t.from(), -t.amount());
            entry(c, t, t.to(), t.amount());
            socket.resetAfterNextCommand();
            if (explicitBegin) {
                try (Statement s = c.createStatement()) {
                    s.execute("COMMIT");
                }
            } else {
                c.commit();
            }
            return unexpected(t, "its COMMIT was answered", BankLedger.Outcome.ACKNOWLEDGED);
        } catch (SQLException e) {
            if (!socket.wasReset()) {
                // The transfer failed before the client could vanish: an ordinary failed transfer.
                ledger.record(t, BankLedger.Outcome.FAILED, clock.millis());
                throw e;
            }
            ledger.record(t, atCommit ? BankLedger.Outcome.UNKNOWN : BankLedger.Outcome.FAILED, clock.millis());
            return String.format(java.util.Locale.ROOT, "transfer %d (%s -> %s) %s vanished right after sending %s",
                t.id(), t.from(), t.to(), explicitBegin ? "after BEGIN" : "with autocommit off",
                atCommit ? "COMMIT" : lockWait ? "its second UPDATE, which waits on a row lock" : "its second UPDATE");
        } finally {
            if (holder != null) {
                // Let the shard see the vanished client's statement waiting a moment, then release it.
                Thread.sleep(300);
                holder.rollback();
                holder.close();
            }
            WorkloadClient.closeQuietly(c);
        }
    }

    /** The socket did not reset, so nothing vanished (it should not happen): recorded as what the client was told. */
    private String unexpected(BankTransfer t, String what, BankLedger.Outcome outcome) {
        ledger.record(t, outcome, clock.millis());
        throw new IllegalStateException("the client did not vanish: " + what + " (transfer " + t.id() + ")");
    }

    private static void update(Connection c, String sql, long amount, BankAccount a) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setLong(1, amount);
            ps.setInt(2, a.branch());
            ps.setInt(3, a.id());
            ps.executeUpdate();
        }
    }

    private static void entry(Connection c, BankTransfer t, BankAccount a, long delta) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(TransferClient.ENTRY)) {
            ps.setInt(1, a.branch());
            ps.setLong(2, t.id());
            ps.setInt(3, a.id());
            ps.setLong(4, delta);
            ps.executeUpdate();
        }
    }
}
