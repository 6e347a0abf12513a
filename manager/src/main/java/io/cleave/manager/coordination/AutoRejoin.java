package io.cleave.manager.coordination;

import io.cleave.manager.standby.PairPeer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * {@code coordination.rejoin: auto}: an old primary that finds in etcd that its standby took over becomes the new
 * primary's standby by itself, through the same check as {@code cleave rejoin} ({@link Rejoin}: nothing changes
 * unless every shard holds nothing the new primary lacks).
 * <p>
 * It needs the new primary's admin token. A standby's daemon tells its primary its own admin URL and token every
 * time it asks for the shards ({@link PairPeer}), so this home holds them once its standby ran while it was primary;
 * it uses them only when the claim in etcd names that same URL. A refusal for transactions the new primary lacks
 * stays in the pair's reason and is not tried again at that epoch (such a home is rebuilt with {@code cleave
 * rejoin --rebuild}, by an operator only: errant transactions are never put aside by themselves); any other failure (the new primary not answering yet) is tried again at the next tick.
 */
public final class AutoRejoin {

    private static final Logger log = LoggerFactory.getLogger(AutoRejoin.class);

    /** Rejoins the primary at {@code url} with its admin token: what {@code cleave rejoin} runs. */
    @FunctionalInterface
    public interface Rejoining {
        RejoinReport rejoin(String url, String token) throws Exception;
    }

    private final Supplier<CoordinationReport> pair;
    private final Supplier<Optional<PairPeer>> peer;
    private final Rejoining rejoining;
    private final Consumer<String> note;
    /** The epoch whose primary refused this home (errant transactions); -1 while none did. */
    private long refusedAt = -1;

    /**
     * @param pair      the pair as this home sees it now
     * @param peer      the standby this home knew while it was the primary
     * @param rejoining what rejoins
     * @param note      where what happened goes, for the pair's reason in status (null: nothing to say)
     */
    public AutoRejoin(Supplier<CoordinationReport> pair, Supplier<Optional<PairPeer>> peer, Rejoining rejoining,
                      Consumer<String> note) {
        this.pair = pair;
        this.peer = peer;
        this.rejoining = rejoining;
        this.note = note;
    }

    /** One try, when this home is superseded; run every few seconds. */
    public synchronized void tick() {
        CoordinationReport now = pair.get();
        if (now.state() != PairState.SUPERSEDED) {
            return;
        }
        PrimaryClaim claim = now.primary();
        if (claim == null) {
            note.accept("It rejoins by itself (coordination.rejoin: auto) once a primary's claim lives in etcd.");
            return;
        }
        if (claim.epoch() == refusedAt) {
            return;
        }
        Optional<PairPeer> known = peer.get();
        if (known.isEmpty() || !sameUrl(known.get().url(), claim.admin())) {
            note.accept("Rejoining by itself (coordination.rejoin: auto) needs the admin token of " + claim.admin()
                    + ", which this home was not told (a standby's daemon tells its primary as it runs): run 'cleave"
                    + " rejoin --primary " + claim.admin() + " --primary-token-file FILE'.");
            return;
        }
        try {
            RejoinReport report = rejoining.rejoin(claim.admin(), known.get().token());
            if (report.joined()) {
                log.info("rejoined {} as its standby by itself (coordination.rejoin: auto)", claim);
                note.accept(null);
                return;
            }
            refusedAt = claim.epoch();
            note.accept("Rejoining by itself was refused: its shards hold transactions " + claim.admin() + " lacks ("
                    + String.join("; ", report.shards()) + "); it stays fenced: rebuild it as"
                    + " its standby with 'cleave rejoin --rebuild', which keeps them aside (never by itself: an operator"
                    + " decides what becomes of them).");
        } catch (Exception e) {
            log.warn("rejoining {} by itself failed, tried again shortly: {}", claim, e.getMessage());
            note.accept("Rejoining by itself failed, tried again shortly: " + e.getMessage());
        }
    }

    static boolean sameUrl(String a, String b) {
        return strip(a).equalsIgnoreCase(strip(b));
    }

    private static String strip(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
