package io.cleave.manager.standby.forwarding;

import io.cleave.manager.home.JsonFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * On a home that took over in a switchover: the old primary's proxy may still forward its clients to this home's
 * shards, routing by the shard map it had at the switchover. A layout change here (a move's flip, a shard-table, a
 * scale, an import, a global unique key's build) would send its clients' statements to the wrong shard, or let them
 * write past a key it does not know: a lost write or a wrong answer. So every layout change is refused while it may.
 * <p>
 * The take-over writes {@code state/forwarding-peer.json} (the old primary's admin URL) before this home becomes the
 * primary, so no layout change gets in between. It goes once the old primary answers that its proxy does not run
 * (asked at each layout change and every few seconds), when this home switches back (it becomes the standby), and on a
 * failover (the old primary is lost: a proxy of it is gone or fenced). A home that cannot be asked counts as
 * forwarding.
 */
public final class ForwardingPeer {

    private static final Logger log = LoggerFactory.getLogger(ForwardingPeer.class);
    private static final String FILE = "forwarding-peer.json";

    /** Asks the old primary's daemon about its proxy. */
    @FunctionalInterface
    public interface Ask {
        PeerProxy proxy(String url) throws IOException;
    }

    /** The stored part: the old primary's admin URL, and which take-over wrote it (a later one writes anew). */
    record Stored(String url, String takeOver) {
    }

    private final JsonFile<Stored> file;
    private final Ask ask;

    public ForwardingPeer(Path stateDir, Ask ask) {
        this.file = file(stateDir);
        this.ask = ask;
    }

    private static JsonFile<Stored> file(Path stateDir) {
        return new JsonFile<>(stateDir.resolve(FILE), Stored.class);
    }

    /** The take-over, before this home becomes the primary: the old primary at {@code url} forwards here from now on. */
    public static void mark(Path stateDir, String url) {
        synchronized (ForwardingPeer.class) {
            file(stateDir).save(new Stored(url, java.util.UUID.randomUUID().toString()));
        }
    }

    /** No other home's proxy forwards here any more (this home switched back, or the other home is lost). */
    public static void forget(Path stateDir) {
        synchronized (ForwardingPeer.class) {
            file(stateDir).delete();
        }
    }

    /** The old primary whose proxy may forward here, or empty. */
    public Optional<String> peer() {
        return file.load().map(Stored::url);
    }

    private Optional<Stored> stored() {
        return file.load();
    }

    /**
     * Why {@code what} (a layout change) is refused now, or null: asks the old primary while its proxy may forward
     * here, and forgets it once it answers that its proxy does not run.
     */
    public String refusal(String what) {
        Optional<Stored> stored = stored();
        if (stored.isEmpty()) {
            return null;
        }
        String url = stored.get().url();
        PeerProxy proxy;
        try {
            proxy = ask.proxy(url);
        } catch (IOException | RuntimeException e) {
            return "cannot ask " + url + " (the pair's other home, the primary before the switchover) whether its"
                    + " proxy still forwards its clients to this home's shards (" + e.getMessage() + "). " + why(what)
                    + " Start its daemon (as a standby it starts no proxy) so that it answers, and try again; if that"
                    + " home is gone for good, its proxy with it: 'cleave standby --forwarding-gone' here";
        }
        if (!proxy.runs()) {
            stopped(stored.get());
            return null;
        }
        return url + " (the pair's other home, the primary before the switchover) runs a proxy (" + proxy.state()
                + ") that forwards its clients to this home's shards. " + why(what) + " Move its clients to this home's"
                + " proxy, stop its forwarding ('cleave standby --stop-forwarding --home ITS_HOME', or restart its daemon:"
                + " as a standby it starts no proxy), and try again";
    }

    /**
     * Why {@code what} is refused, or null, without asking: for a check that must not wait on the network (a
     * statement's). The periodic {@link #poll} forgets the old primary once its proxy stopped.
     */
    public String knownRefusal(String what) {
        return peer().map(url -> url + " (the pair's other home, the primary before the switchover) may still forward"
                + " its clients to this home's shards. " + why(what) + " Move its clients to this home's proxy and stop"
                + " its forwarding ('cleave standby --stop-forwarding --home ITS_HOME'); this home asks every few seconds")
                .orElse(null);
    }

    /** Every few seconds: forgets the old primary once its proxy no longer runs. */
    public void poll() {
        Optional<Stored> stored = stored();
        if (stored.isEmpty()) {
            return;
        }
        try {
            if (!ask.proxy(stored.get().url()).runs()) {
                stopped(stored.get());
            }
        } catch (IOException | RuntimeException e) {
            log.debug("could not ask {} about its proxy: {}", stored.get().url(), e.getMessage());
        }
    }

    /** Forgets the old primary of {@code asked}, unless a take-over since marked it anew (its proxy forwards again). */
    private void stopped(Stored asked) {
        synchronized (ForwardingPeer.class) {
            if (!stored().map(asked::equals).orElse(false)) {
                return;
            }
            file.delete();
        }
        log.info("{} no longer runs a proxy forwarding to this home's shards: layout changes are taken again", asked.url());
    }

    private static String why(String what) {
        return "Its proxy routes by the shard map and enforces the global unique keys it had at the switchover, and"
                + " follows no change of them made here, so its clients' statements would reach the wrong shard or miss"
                + " a key: " + what + " is refused while it forwards.";
    }
}
