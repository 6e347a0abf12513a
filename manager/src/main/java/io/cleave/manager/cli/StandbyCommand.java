package io.cleave.manager.cli;

import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.config.ConfigLoader;
import io.cleave.manager.config.HostPort;
import io.cleave.manager.config.ListenAddresses;
import io.cleave.manager.config.ServerConfig;
import io.cleave.manager.config.StandbySource;
import io.cleave.manager.standby.StandbyConfig;
import io.cleave.manager.standby.StandbyReport;
import io.cleave.manager.standby.StandbySeed;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code cleave standby --primary URL --primary-token-file FILE --via LOCATION --home NEWHOME --base-port N
 * --admin-port N --proxy-listen HOST:PORT}; on a primary, {@code cleave standby --semi-sync on|off}; on the old
 * primary of a switchover, {@code cleave standby --stop-forwarding}; on the new one, {@code --forwarding-gone}.
 */
@Command(name = "standby", mixinStandardHelpOptions = true,
        description = {"Builds a standby of a running primary in a new home: the primary backs up at one cut into --via"
                + " (a directory or s3:// both hosts reach), the backup is restored into NEWHOME with the primary's"
                + " settings and this host's addresses, and every shard replicates its primary shard from the cut"
                + " (MariaDB GTID replication, strict mode, read-only). Start it with the 'cleave up' printed at the end:"
                + " once every replica runs, the primary waits for their acknowledgement at every commit (semi-sync"
                + " AFTER_SYNC, never falling back to asynchronous replication).",
                "The config equivalent: --config FILE with a 'standby' section (primary, primary_token_file, via); this"
                        + " home's addresses are then the config's server.base_port, admin.port and proxy.listen.",
                "--semi-sync on|off, against the primary's home, is the operator's decision while the standby is away:"
                        + " off lets the primary's blocked commits go on without a standby.",
                "--stop-forwarding, against the old primary's home after a switchover: its proxy, which forwards its"
                        + " clients to the new primary's shards, stops (the new primary takes layout changes again).",
                "--forwarding-gone, against the new primary's home: the old primary is gone for good and cannot be"
                        + " asked; its proxy no longer counts as forwarding."})
public final class StandbyCommand implements Callable<Integer> {

    @Mixin
    HomeOptions options;

    @Mixin
    LocationOptions location;

    /** From the config's server.replication_tls; null: the default of the bind address. */
    private io.cleave.manager.config.ReplicationTls replicationTls;

    @Option(names = "--primary", paramLabel = "URL", description = "The primary daemon's admin URL, e.g. http://127.0.0.1:6034.")
    String primary;

    @Option(names = "--primary-token-file", paramLabel = "FILE", description = "A copy of the primary's state/admin-token.")
    Path tokenFile;

    @Option(names = "--via", paramLabel = "LOCATION", description = "Where the seeding backup goes: a directory or"
            + " s3://BUCKET/PREFIX the primary writes and this host reads.")
    String via;

    @Option(names = "--base-port", paramLabel = "N", description = "This standby's shards listen on N, N+1, ...")
    Integer basePort;

    @Option(names = "--admin-port", paramLabel = "N", description = "This standby daemon's admin API port.")
    Integer adminPort;

    @Option(names = "--admin-listen", paramLabel = "HOST:PORT", description = "This standby daemon's admin API address,"
            + " instead of --admin-port (127.0.0.1); the API has no authentication but its token: listen beyond"
            + " loopback only on a network you trust.")
    String adminListen;

    @Option(names = "--bind-address", paramLabel = "ADDRESS", description = "The address this standby's shards listen"
            + " on besides loopback (server.bind_address), e.g. its own address for the pair's other home.")
    String bindAddress;

    @Option(names = "--advertise-host", paramLabel = "HOST", description = "The host the pair's other home reaches"
            + " this one at (server.advertise_host; default: --bind-address).")
    String advertiseHost;

    @Option(names = "--proxy-listen", paramLabel = "HOST:PORT", description = "Where this home's proxy listens once"
            + " it is primary.")
    String proxyListen;

    @Option(names = "--server-id-base", paramLabel = "N", description = "This standby's shards' server_id base"
            + " (default: the primary's + 1000).")
    int serverIdBase;

    @Option(names = "--semi-sync", paramLabel = "on|off", description = "On the primary: wait for the standby's"
            + " acknowledgements at every commit (on), or not (off).")
    String semiSync;

    @Option(names = "--stop-forwarding", description = "On the old primary of a switchover (now the standby): stop its"
            + " proxy, which forwards its clients to the primary's shards (move them to the primary's proxy first). The"
            + " primary refuses layout changes (moves, rebalance, shard-table, scale, import) while it forwards.")
    boolean stopForwarding;

    @Option(names = "--forwarding-gone", description = "On the primary of a switchover: the old primary is gone for"
            + " good, its proxy with it, and cannot be asked whether it still forwards: take layout changes again."
            + " Wrong while its proxy runs: its clients' statements on moved keys would reach the wrong shard.")
    boolean forwardingGone;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** What the options leave out, from a config with a standby section: the primary, and this home's addresses. */
    private void fromConfig() {
        if (options.config == null) {
            return;
        }
        CleaveConfig config = ConfigLoader.load(options.config());
        if (config.standby().isEmpty()) {
            return;
        }
        StandbySource source = config.standby().get();
        primary = primary != null ? primary : source.primary();
        tokenFile = tokenFile != null ? tokenFile : source.primaryTokenFile();
        via = via != null ? via : source.via();
        StandbyConfig own = StandbyConfig.of(config);
        basePort = basePort != null ? basePort : own.basePort();
        if (adminPort == null && adminListen == null) {
            adminPort = own.adminPort();
            adminListen = own.listen().adminHost().equals(ListenAddresses.LOOPBACK) ? null
                    : new HostPort(own.listen().adminHost(), own.adminPort()).toString();
        }
        bindAddress = bindAddress != null ? bindAddress : own.listen().shardBind();
        advertiseHost = advertiseHost != null ? advertiseHost : own.listen().advertiseHost().orElse(null);
        replicationTls = own.listen().replicationTls();
        proxyListen = proxyListen != null ? proxyListen : own.proxyListen();
        if (serverIdBase == 0 && own.serverIdBase() != ServerConfig.DEFAULT_SERVER_ID_BASE) {
            serverIdBase = own.serverIdBase();
        }
    }

    /** This standby's addresses; replication TLS as its config says, else the default of its bind address. */
    private ListenAddresses listen(String adminHost) {
        ListenAddresses listen = new ListenAddresses(bindAddress == null ? ListenAddresses.LOOPBACK : bindAddress,
                Optional.ofNullable(advertiseHost), adminHost);
        return replicationTls == null ? listen : listen.withReplicationTls(replicationTls);
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (semiSync != null) {
            if (!semiSync.equals("on") && !semiSync.equals("off")) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--semi-sync takes on or off");
            }
            StandbyReport r = options.daemon().semiSync(semiSync.equals("on"));
            out.println("semi-sync " + (r.semiSync() ? "on" : "off") + " on every shard of " + options.home().root());
            out.flush();
            return ExitCodes.OK;
        }
        if (stopForwarding) {
            io.cleave.manager.standby.forwarding.PeerProxy p = options.daemon().stopForwarding();
            out.println(p.runs() ? "the proxy still runs: " + p.state() : "the proxy of " + options.home().root()
                    + " stopped: the primary takes layout changes again once it has asked (within a few seconds)");
            out.flush();
            return ExitCodes.OK;
        }
        if (forwardingGone) {
            String forgot = options.daemon().forgetForwarding();
            out.println(forgot == null ? "no old primary's proxy was counted as forwarding here"
                    : "forgot " + forgot + ": layout changes are taken again without asking it");
            out.flush();
            return ExitCodes.OK;
        }
        fromConfig();
        String adminHost = ListenAddresses.LOOPBACK;
        if (adminListen != null) {
            HostPort admin = HostPort.parse(adminListen);
            adminHost = admin.host();
            adminPort = admin.port();
        }
        if (primary == null || tokenFile == null || via == null || options.home == null || basePort == null
                || adminPort == null || proxyListen == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give --primary, --primary-token-file, --via,"
                    + " --home, --base-port, --admin-port and --proxy-listen, or --home and a --config with a standby"
                    + " section");
        }
        String token = Files.readString(tokenFile).trim();
        StandbySeed.Result r = new StandbySeed(location.settings(options.configIfAny()), options.env, line -> {
            out.println(line);
            out.flush();
        }).run(new StandbySeed.Request(primary, token, options.home().root(), via,
                new StandbyConfig(basePort, adminPort, proxyListen, serverIdBase, listen(adminHost))));
        out.printf("standby of %s built in %s from backup %s: %,d rows on %d shards in %.1f s, each shard replicating%n",
                primary, r.home(), r.backup(), r.rows(), r.shards(), r.millis() / 1000.0);
        out.println("start it with: cleave up --home " + r.home() + " --config " + r.config());
        out.flush();
        return ExitCodes.OK;
    }
}
