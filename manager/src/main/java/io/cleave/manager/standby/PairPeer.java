package io.cleave.manager.standby;

import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.home.JsonFile;
import io.cleave.manager.home.Secrets;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The standby as its primary knows it: its admin URL in {@code state/standby-peer.json}, its admin token in
 * {@code state/standby-admin-token}. The standby's daemon says both every time it asks for the shards, and a
 * switchover's take-over keeps the old primary as such. Until the standby's daemon first asked, a primary that was
 * seeded as such does not know it: a switchover then is told the standby's URL and token.
 */
public record PairPeer(String url, String token) {

    private static final String FILE = "standby-peer.json";
    private static final String TOKEN = "standby-admin-token";

    /** The stored part (the token lives in its own owner-only file). */
    record Stored(String url) {
    }

    public static Optional<PairPeer> of(CleaveHome home) {
        Optional<Stored> stored = new JsonFile<>(home.state().resolve(FILE), Stored.class).load();
        Path token = home.state().resolve(TOKEN);
        if (stored.isEmpty() || !Files.exists(token)) {
            return Optional.empty();
        }
        try {
            return Optional.of(new PairPeer(stored.get().url(), Files.readString(token).trim()));
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + token + ": " + e.getMessage(), e);
        }
    }

    void save(CleaveHome home) throws IOException {
        Secrets.replacePrivate(home.state().resolve(TOKEN), token + "\n");
        new JsonFile<>(home.state().resolve(FILE), Stored.class).save(new Stored(url));
    }

    static void forget(CleaveHome home) throws IOException {
        new JsonFile<>(home.state().resolve(FILE), Stored.class).delete();
        Files.deleteIfExists(home.state().resolve(TOKEN));
    }

    /** The primary as its standby knows it ({@code state/primary-admin-token}; its URL is in the standby state). */
    static void saveAsPrimary(CleaveHome home, String token) throws IOException {
        Secrets.replacePrivate(home.state().resolve(ReplicationMonitor.PRIMARY_TOKEN), token + "\n");
    }

    /** The primary's admin token as a standby keeps it. */
    public static String primaryToken(CleaveHome home) throws IOException {
        return Files.readString(home.state().resolve(ReplicationMonitor.PRIMARY_TOKEN)).trim();
    }

    @Override
    public String toString() {
        return "PairPeer[" + url + "]";
    }
}
