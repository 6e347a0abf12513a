package io.cleave.e2e.transactions;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.function.UnaryOperator;

/** A started home whose shards hold the bank's accounts ({@link Bank#sharding}), schema created. */
final class BankHome implements AutoCloseable {

    private final CleaveTestHome home;
    private final RunningDaemon daemon;

    private BankHome(CleaveTestHome home, RunningDaemon daemon) {
        this.home = home;
        this.daemon = daemon;
    }

    static BankHome start(int shards) throws SQLException {
        return start(shards, b -> b);
    }

    /** With further options of the home ({@code options} gets the builder with shards and sharding set). */
    static BankHome start(int shards, UnaryOperator<CleaveTestHome.Builder> options) throws SQLException {
        CleaveTestHome home = options.apply(CleaveTestHome.builder().shards(shards).extraYaml(Bank.sharding(shards)))
                .create();
        RunningDaemon daemon = null;
        try {
            daemon = home.start();
            try (Connection c = daemon.connectProxy("", "")) {
                Bank.create(c);
            }
            return new BankHome(home, daemon);
        } catch (RuntimeException | SQLException e) {
            if (daemon != null) {
                daemon.close();
            }
            home.close();
            throw e;
        }
    }

    RunningDaemon daemon() {
        return daemon;
    }

    @Override
    public void close() {
        daemon.close();
        home.close();
    }
}
