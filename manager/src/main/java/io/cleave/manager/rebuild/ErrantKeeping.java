package io.cleave.manager.rebuild;

import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.home.KeptAside;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Puts an old primary's home aside before it is rebuilt as the new primary's standby, deleting nothing: its shards'
 * datadirs (they hold the transactions the new primary lacks, in their tables and binlogs) go to {@code
 * errant/<epoch>/shard-N}, everything else of the home (state, config, etc, logs) to {@code errant/<epoch>/home}, and
 * {@code errant/<epoch>/ERRANT.txt} says which GTIDs were errant and where each shard's copy is. The home then holds
 * {@code errant/} only, which a restore into it leaves alone. A datadir outside the home (config {@code
 * datadir_roots}) stays where it is: the rebuilt home's datadirs are inside it, as a standby's are.
 */
public final class ErrantKeeping {

    static final String RECORD = "ERRANT.txt";
    private static final Pattern DATADIR = Pattern.compile("^\\s*datadir\\s*=\\s*(.+?)\\s*$", Pattern.MULTILINE);
    private static final Pattern SHARD_CNF = Pattern.compile("shard-(\\d+)\\.cnf");

    /** What was put aside: the directory, and per shard where its datadir is now. */
    public record Kept(Path dir, List<String> shards) {
    }

    private ErrantKeeping() {
    }

    /**
     * Moves the home aside into {@code errant/<epoch>} (another name beside it when that exists already), with the
     * record of {@code errant} (per shard, its GTIDs the new primary at {@code primary} lacks). Nothing of the home may
     * run meanwhile.
     */
    public static Kept keep(CleaveHome home, long epoch, String primary, List<String> errant, Instant now)
            throws IOException {
        Path root = home.root();
        Path dir = free(root.resolve(KeptAside.DIR), String.valueOf(epoch));
        Files.createDirectories(dir.resolve("home"));
        List<String> shards = new ArrayList<>();
        for (Path cnf : cnfs(home)) {
            Matcher m = SHARD_CNF.matcher(cnf.getFileName().toString());
            Optional<Path> datadir = datadirOf(cnf);
            if (!m.matches() || datadir.isEmpty()) {
                continue;
            }
            Path from = datadir.get();
            if (from.startsWith(root) && Files.isDirectory(from)) {
                Path to = dir.resolve("shard-" + m.group(1));
                Files.move(from, to);
                shards.add("shard " + m.group(1) + ": its datadir " + from + " is kept in " + to);
            } else {
                shards.add("shard " + m.group(1) + ": its datadir is left where it is, " + from);
            }
        }
        try (Stream<Path> entries = Files.list(root)) {
            for (Path p : entries.filter(p -> !KeptAside.isKept(p)).toList()) {
                Files.move(p, dir.resolve("home").resolve(p.getFileName()));
            }
        }
        List<String> record = new ArrayList<>();
        record.add("# " + root + " was rebuilt as the standby of " + primary + " (epoch " + epoch + ") at " + now + ".");
        record.add("# Its shards held these transactions, which the new primary lacks (never acknowledged to a client):");
        errant.forEach(record::add);
        record.add("# Where each shard's datadir (its tables and binlogs) is kept; the rest of the home is in " + dir.resolve("home") + ":");
        shards.forEach(record::add);
        Files.write(dir.resolve(RECORD), record);
        return new Kept(dir, shards);
    }

    /** Whether a rebuild put a home aside in {@code home}. */
    public static boolean anyKept(CleaveHome home) {
        return Files.isDirectory(home.root().resolve(KeptAside.DIR));
    }

    /** Where shard datadirs were: each {@code etc/shard-N.cnf}'s datadir. */
    private static List<Path> cnfs(CleaveHome home) throws IOException {
        if (!Files.isDirectory(home.etc())) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(home.etc())) {
            return files.filter(p -> SHARD_CNF.matcher(p.getFileName().toString()).matches()).sorted().toList();
        }
    }

    static Optional<Path> datadirOf(Path cnf) throws IOException {
        Matcher m = DATADIR.matcher(Files.readString(cnf));
        return m.find() ? Optional.of(Path.of(m.group(1)).toAbsolutePath().normalize()) : Optional.empty();
    }

    private static Path free(Path parent, String name) {
        Path p = parent.resolve(name);
        for (int i = 2; Files.exists(p); i++) {
            p = parent.resolve(name + "-" + i);
        }
        return p;
    }
}
