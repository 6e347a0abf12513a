package io.cleave.e2e.standby;

import io.cleave.e2e.moves.BankTransfers;
import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.manager.home.DaemonInfo;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

import static io.cleave.e2e.standby.StandbyIT.run;

/**
 * A primary run from the shipped jar in its own process (so a test can SIGKILL it with its shards), holding the
 * bank's tables.
 *
 * @param up    the daemon's process
 * @param url   its admin URL
 * @param token its admin token
 */
record JarPrimary(Process up, String url, String token) {

    /** Starts {@code a}'s daemon (its output in {@code log}), creates the bank; the process is killed on failure. */
    static JarPrimary startWithBank(CleaveTestHome a, Path log, BankTransfers.Shape shape) throws Exception {
        Process up = CleaveJar.up(a, log);
        try {
            try (Connection c = CleaveJar.awaitProxy(a, up, log, "")) {
                BankTransfers.create(c, shape);
            }
            CleaveJar.awaitAdmin(a, up, log);
            return new JarPrimary(up, "http://127.0.0.1:" + DaemonInfo.read(a.home()).orElseThrow().adminPort(),
                    Files.readString(a.home().adminTokenFile()).trim());
        } catch (Exception | AssertionError e) {
            up.destroyForcibly();
            throw e;
        }
    }

    /** A connection to {@code a}'s shard as the shard account (under the proxy). */
    static Connection shard(CleaveTestHome a, int shard) throws Exception {
        String secret = Files.readString(a.home().shardSecretFile()).trim();
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + (a.basePort() + shard) + "/?sslMode=DISABLED"
                + "&allowPublicKeyRetrieval=true", io.cleave.manager.instance.ShardAccount.USER, secret);
    }

    /** Prepares {@code xid}'s branch inserting {@code id} into probe.t on {@code c}, as a dying proxy leaves one. */
    static Connection prepare(Connection c, String xid, int id) throws SQLException {
        run(c, "XA START '" + xid + "'");
        run(c, "INSERT INTO probe.t VALUES (" + id + ")");
        run(c, "XA END '" + xid + "'");
        run(c, "XA PREPARE '" + xid + "'");
        return c;
    }
}
