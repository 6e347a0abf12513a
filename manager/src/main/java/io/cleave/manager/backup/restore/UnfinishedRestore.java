package io.cleave.manager.backup.restore;

import io.cleave.manager.home.CleaveHome;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * The mark a restore leaves in a home it builds ({@code state/restore-unfinished}) until the home is
 * complete and checked. A home that holds it was cut short (the restore failed, was killed, or one of
 * its shards died: it holds part of the rows at most) or ended with tables that differ from the
 * backup (the mark says which), so {@code cleave up} refuses it, and the next restore into the same
 * directory deletes it and starts over.
 */
public final class UnfinishedRestore {

    static final String MARKER = "restore-unfinished";

    private UnfinishedRestore() {
    }

    static Path marker(Path root) {
        return root.resolve("state").resolve(MARKER);
    }

    static void mark(CleaveHome home) throws IOException {
        Files.writeString(marker(home.root()), "a restore is building this home\n");
    }

    static void clear(CleaveHome home) throws IOException {
        Files.deleteIfExists(marker(home.root()));
    }

    /** The restore ended, but {@code differing} tables do not hold what the backup read: the home stays marked. */
    static void markDiffering(CleaveHome home, List<String> differing) throws IOException {
        Files.writeString(marker(home.root()), DIFFERING + String.join("; ", differing) + "\n");
    }

    private static final String DIFFERING = "its tables differ from the backup: ";

    static boolean marked(Path root) {
        return Files.exists(marker(root));
    }

    /** Why a daemon must not run {@code home} (a restore into it did not finish), or empty. */
    public static Optional<String> refusal(CleaveHome home) {
        if (!marked(home.root())) {
            return Optional.empty();
        }
        String said;
        try {
            said = Files.readString(marker(home.root())).strip();
        } catch (IOException e) {
            said = "";
        }
        if (said.startsWith(DIFFERING)) {
            return Optional.of(home.root() + " is a restore whose rows are not the backup's (" + marker(home.root()) + ": "
                    + said + "). " + whatToDo(home.root()) + " (from another backup if it fails the same way)");
        }
        return Optional.of(home.root() + " is a restore that did not finish (" + marker(home.root()) + "): its shards hold"
                + " part of the backup at most. " + whatToDo(home.root()));
    }

    /** {@code cause}, which cut the restore into {@code root} short, said with what the home is now and what to do. */
    static Exception failed(Path root, Exception cause) {
        String why = (cause.getMessage() == null ? cause.toString() : cause.getMessage()).strip().replaceAll("\\.+$", "");
        return new IllegalStateException("the restore into " + root + " failed: " + why + ". The home is left unfinished"
                + " (" + marker(root) + ") and 'cleave up' refuses it. " + whatToDo(root), cause);
    }

    private static String whatToDo(Path root) {
        return "Run the same command (cleave restore ... --home " + root + ") again: it deletes what the cut-short"
                + " restore made and starts over; or delete " + root;
    }
}
