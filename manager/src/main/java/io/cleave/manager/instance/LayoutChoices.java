package io.cleave.manager.instance;

import io.cleave.manager.config.ReplicationTls;

import java.util.ArrayList;
import java.util.List;

/** Where an instance's files and addresses are, its binlog and its AUTO_INCREMENT steps. */
public final class LayoutChoices {

    /**
     * Where a shard takes PROXY protocol headers from: the proxy's own loopback connections (a standby pair adds the
     * other home's address while its proxy forwards here: {@code standby.PeerShardAccount}).
     */
    public static final String PROXY_PROTOCOL_NETWORKS = "127.0.0.1";

    private static final long BINLOG_EXPIRY_SECONDS = 7 * 24 * 3600;

    private LayoutChoices() {
    }

    static List<Choice> of(InstancePlan p, PlanContext c) {
        List<Choice> out = new ArrayList<>();
        SettingGroup g = SettingGroup.IDENTITY;
        out.add(Choice.pinned(g, "server_id", p.serverId(), "unique per shard, so binlog events name the shard that wrote them"));
        out.add(Choice.pinned(g, "port", p.port(), "server.base_port + " + p.index()));
        String bind = c.config().listen().shardBindOption();
        out.add(Choice.pinned(g, "bind_address", bind, bind.equals("127.0.0.1") ? "only the proxy and local tools reach a shard"
                : "server.bind_address: a standby's replicas on another host reach the shard there; loopback stays for the proxy"));
        out.add(Choice.pinned(g, "socket", p.socket(), "the proxy talks to local shards over their Unix socket"));
        out.add(Choice.pinned(g, "pid_file", p.pidFile(), "in the home's run directory"));
        out.add(Choice.pinned(g, "tmpdir", p.tmpdir(), "the shard's own temporary files, in the home's run directory:"
                + " in the host's shared /tmp other programs' cleanups can remove them under the server"));
        if (c.serverUser() != null) {
            out.add(Choice.pinned(g, "user", c.serverUser(), c.serverUser().equals("root")
                    ? "server.os_user is root: the server refuses to run as root without this"
                    : "the daemon runs as root; the server runs as this unprivileged user (server.os_user)"));
        }
        out.add(Choice.pinned(g, "secure_file_priv", c.files(), "the only directory LOAD DATA INFILE, LOAD_FILE() and"
                + " SELECT ... INTO OUTFILE may touch, for accounts granted FILE"));
        out.add(Choice.of(g, "skip_name_resolve", "ON", "clients come from loopback: no DNS lookups on connect"));
        if (c.flavour().isMysqlFamily()) {
            out.add(Choice.pinned(g, "mysqlx", "OFF", "X Protocol would open another port and socket; shards speak the classic protocol only"));
        }
        if (c.mariadb()) {
            out.add(Choice.pinned(g, "proxy_protocol_networks", PROXY_PROTOCOL_NETWORKS, "the proxy logs in to a shard as its client's"
                    + " account, over loopback TCP with a PROXY header naming the client's address where the account's"
                    + " host pattern depends on it"));
            if (c.config().listen().replicationTls() == ReplicationTls.REQUIRED) {
                out.add(Choice.pinned(g, "ssl_cert", c.tlsCertificate(), "server.replication_tls: the other home's replicas"
                        + " log in over TLS and verify this certificate (the home's own, made at its first start)"));
                out.add(Choice.pinned(g, "ssl_key", c.tlsKey(), "the certificate's key, readable by the server's user only"));
            } else {
                out.add(Choice.of(g, "ssl", "0", "MariaDB makes a TLS certificate at every start without this (seconds of CPU);"
                        + " shards listen on loopback and a private socket only"));
            }
        }
        out.add(Choice.pinned(g, "basedir", c.binary().basedir(), "the installation of " + c.server()));
        out.add(Choice.pinned(g, "datadir", p.datadir(), "on " + p.dataStorage().deviceName()
                + (c.config().datadirRoots().size() > 1 ? " (datadir_roots spread round-robin)" : "")));
        out.add(Choice.pinned(g, "log_error", p.errorLog(), "in the home's logs directory"));
        if (p.separateLogDir()) {
            out.add(Choice.pinned(SettingGroup.REDO, "innodb_log_group_home_dir", p.logDir(), "log_dir in the config: redo on "
                    + p.logStorage().deviceName() + ", apart from the datadir's " + p.dataStorage().deviceName()));
        }

        g = SettingGroup.BINLOG;
        out.add(Choice.pinned(g, "log_bin", p.logDir().resolve("binlog"), "moving keys between shards reads the source shard's binlog"
                + (p.separateLogDir() ? "; on the log device " + p.logStorage().deviceName() : "")));
        out.add(Choice.of(g, "binlog_format", "ROW", "a move applies row images; statements could change other rows on replay"));
        out.add(Choice.of(g, "binlog_expire_logs_seconds", BINLOG_EXPIRY_SECONDS,
                "a week of binlog, so a paused move can resume; older files are removed"));

        g = SettingGroup.IDS;
        out.add(Choice.of(g, "auto_increment_increment", p.shardCount(), p.shardCount() + " shards: ids step by the shard count"));
        out.add(Choice.of(g, "auto_increment_offset", p.index() + 1, "shard " + p.index() + " starts at " + (p.index() + 1)
                + ", so no two shards make the same id"));
        return out;
    }
}
