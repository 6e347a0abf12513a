package io.cleave.manager.coordination;

import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.home.Secrets;
import io.cleave.manager.move.ShardLinks;
import io.cleave.manager.standby.Attachment;
import io.cleave.manager.standby.HostRole;
import io.cleave.manager.standby.PeerShardAccount;
import io.cleave.manager.standby.ReplicationMonitor;
import io.cleave.manager.standby.StandbyReport;
import io.cleave.manager.standby.StandbyState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes an old primary, fenced after its standby took over, the new primary's standby: each of its shards must
 * hold nothing the new primary's shard lacks ({@link ErrantTransactions}); then each replicates from the new
 * primary's shard from its own last GTID (the new primary's binlog holds it: it replicated it with
 * log_slave_updates), read-only, acknowledging by semi-sync. Checked on every shard before any is changed, so
 * a refusal leaves the home as it was.
 */
public final class Rejoin {

    private static final Logger log = LoggerFactory.getLogger(Rejoin.class);

    private final CleaveHome home;
    private final ShardLinks links;
    private final List<Integer> shards;

    public Rejoin(CleaveHome home, ShardLinks links, List<Integer> shards) {
        this.home = home;
        this.links = links;
        this.shards = shards;
    }

    /** Rejoins as the standby of the primary at {@code url} (whose admin token is {@code token}). */
    public RejoinReport run(String url, String token) throws IOException, SQLException {
        StandbyState mine = StandbyState.of(home).orElse(new StandbyState(HostRole.PRIMARY, 1, null, false));
        if (mine.role() != HostRole.PRIMARY) {
            throw new IllegalStateException("this home is already a standby (of " + mine.primary() + ")");
        }
        AdminClient primary = AdminClient.remote(url, token);
        StandbyReport theirs = primary.standby();
        if (theirs.role() != HostRole.PRIMARY || theirs.epoch() <= mine.epoch()) {
            throw new IllegalStateException(url + " is " + theirs.role() + " at epoch " + theirs.epoch() + ", and this"
                    + " home was the primary at epoch " + mine.epoch() + ": a home rejoins only a primary that took over"
                    + " from it");
        }
        Attachment attachment = primary.attachStandby();
        List<String> errant = new ArrayList<>();
        List<String> positions = new ArrayList<>();
        for (int shard : shards) {
            Attachment.ShardAddress source = address(attachment, shard);
            String own;
            try (Connection c = links.open(shard)) {
                own = single(c, "SELECT @@gtid_binlog_pos");
            }
            String state;
            String replicated;
            try (Connection c = DriverManager.getConnection("jdbc:mysql://" + source.host() + ":" + source.port()
                    + "/?" + io.cleave.manager.standby.tls.ShardTls.of(home).jdbcOptions(attachment.shardCertificate())
                    + "&allowPublicKeyRetrieval=true", attachment.user(), attachment.password())) {
                state = single(c, "SELECT @@global.gtid_binlog_state");
                replicated = single(c, "SELECT @@global.gtid_slave_pos");
            }
            List<String> extra = ErrantTransactions.of(own, state, replicated);
            if (!extra.isEmpty()) {
                errant.add("shard " + shard + ": " + String.join(", ", extra));
            }
            positions.add(own);
        }
        if (!errant.isEmpty()) {
            log.error("rejoin refused: transactions the new primary lacks: {}", errant);
            return new RejoinReport(false, theirs.epoch(), url, errant);
        }
        io.cleave.manager.standby.tls.ReplicaLink link = io.cleave.manager.standby.tls.ShardTls.of(home)
                .toPrimary(attachment.shardCertificate());
        List<String> out = new ArrayList<>();
        for (int i = 0; i < shards.size(); i++) {
            int shard = shards.get(i);
            try (Connection c = links.open(shard); Statement s = c.createStatement()) {
                s.execute("STOP SLAVE");
                s.execute("RESET SLAVE ALL");
                s.execute("SET GLOBAL read_only = ON");
                io.cleave.manager.standby.ShardEvents.disableOnReplica(c);
                s.execute("SET GLOBAL gtid_strict_mode = ON");
                s.execute("SET GLOBAL rpl_semi_sync_master_enabled = OFF");
                s.execute("SET GLOBAL rpl_semi_sync_slave_enabled = ON");
                s.execute("SET GLOBAL slave_net_timeout = " + io.cleave.manager.standby.StandbyConfig.NET_TIMEOUT_SECONDS);
                s.execute("SET GLOBAL gtid_slave_pos = '" + gtid(positions.get(i)) + "'");
                s.execute("CHANGE MASTER TO " + source(address(attachment, shard), attachment, link)
                        + ", MASTER_USE_GTID = slave_pos");
                s.execute("START SLAVE");
            }
            out.add("shard " + shard + ": replicates from " + positions.get(i));
        }
        PeerShardAccount.forget(home, links, shards);
        Secrets.writePrivate(home.state().resolve(ReplicationMonitor.PRIMARY_TOKEN), token + "\n");
        StandbyState.file(home).save(new StandbyState(HostRole.STANDBY, theirs.epoch(), url, false));
        log.info("rejoined as the standby of {} at epoch {}: {}", url, theirs.epoch(), out);
        return new RejoinReport(true, theirs.epoch(), url, out);
    }

    private static Attachment.ShardAddress address(Attachment attachment, int shard) {
        return attachment.shards().stream().filter(a -> a.shard() == shard).findFirst().orElseThrow(() ->
                new IllegalStateException("the new primary has no shard " + shard + ": the homes' layouts differ;"
                        + " rebuild this one with 'cleave standby'"));
    }

    private static String source(Attachment.ShardAddress primary, Attachment attachment,
                                 io.cleave.manager.standby.tls.ReplicaLink link) {
        if (!primary.host().matches("[A-Za-z0-9.:_-]+") || !attachment.user().matches("[A-Za-z0-9_]+")
                || attachment.password().contains("'") || attachment.password().contains("\\")) {
            throw new IllegalArgumentException("the new primary's attachment holds an unusable address or account");
        }
        return "MASTER_HOST = '" + primary.host() + "', MASTER_PORT = " + primary.port() + ", MASTER_USER = '"
                + attachment.user() + "', MASTER_PASSWORD = '" + attachment.password() + "', MASTER_CONNECT_RETRY = 1, "
                + link.changeMasterOptions();
    }

    private static String gtid(String text) {
        if (!text.matches("[0-9]+-[0-9]+-[0-9]+(,[0-9]+-[0-9]+-[0-9]+)*|")) {
            throw new IllegalArgumentException("'" + text + "' is not a GTID position");
        }
        return text;
    }

    private static String single(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getString(1) == null ? "" : rs.getString(1);
        }
    }
}
