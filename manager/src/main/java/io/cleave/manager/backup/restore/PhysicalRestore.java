package io.cleave.manager.backup.restore;

import io.cleave.manager.backup.BackupManifest;
import io.cleave.manager.backup.LogicalBackup;
import io.cleave.manager.backup.physical.BackupTool;
import io.cleave.manager.backup.physical.StreamParts;
import io.cleave.manager.backup.store.BackupStore;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Brings a new home with the backup's shard count to a physical backup's cut: each shard's copy
 * checked part by part and unpacked with mbstream, prepared with mariadb-backup (its redo applied, so
 * the files are as the server had them at the copy's own binlog position), put in place of the
 * shard's datadir, and the shard's binlog kept with the copy replayed from that position to the cut's.
 * XA branches still prepared at the cut are left for the caller to settle, once the home is at the
 * point it restores to.
 */
final class PhysicalRestore {

    /** mariadb-backup's record of the binlog position its copy holds (file, offset, GTID), as 10.x and 11.x name it. */
    private static final List<String> BINLOG_INFO = List.of("xtrabackup_binlog_info", "mariadb_backup_binlog_info");

    private final Map<String, String> env;
    private final Consumer<String> say;

    PhysicalRestore(Map<String, String> env, Consumer<String> say) {
        this.env = env;
        this.say = say;
    }

    void into(NewHome home, BackupStore store, BackupManifest manifest) throws Exception {
        BackupTool.Lookup lookup = BackupTool.forServer(home.server(), env.get("PATH"));
        if (!lookup.found()) {
            throw new IllegalStateException("backup " + manifest.id() + " is physical (copied by mariadb-backup of MariaDB "
                    + manifest.serverVersion() + ") and its copies are prepared with the same tool: " + lookup.why());
        }
        BackupTool tool = lookup.tool();
        Path work = home.home().state().resolve("physical-restore");
        ExecutorService pool = Executors.newFixedThreadPool(Math.max(1, manifest.copies().size()));
        Map<Integer, Path> prepared = new LinkedHashMap<>();
        Map<Integer, String[]> positions = new LinkedHashMap<>();
        try {
            List<Future<String[]>> steps = new ArrayList<>();
            for (BackupManifest.PhysicalCopy copy : manifest.copies()) {
                Path dir = work.resolve("shard-" + copy.shard());
                prepared.put(copy.shard(), dir.resolve("data"));
                steps.add(pool.submit(() -> unpackAndPrepare(tool, store, copy, dir)));
            }
            for (int i = 0; i < steps.size(); i++) {
                positions.put(manifest.copies().get(i).shard(), LogicalBackup.resultOf(steps.get(i)));
            }
        } finally {
            pool.shutdownNow();
        }
        say.accept("unpacked and prepared " + prepared.size() + " shard copies");
        home.replaceDatadirs(prepared);
        BinlogReplay replay = new BinlogReplay(Tools.find(home.serverBinary(), env.get("PATH"), "mariadb-binlog",
                "mysqlbinlog"), Tools.find(home.serverBinary(), env.get("PATH"), "mariadb", "mysql"), home.home().logs());
        for (BackupManifest.PhysicalCopy copy : manifest.copies()) {
            String[] from = positions.get(copy.shard());
            BackupManifest.ShardPosition to = manifest.shards().get(copy.shard());
            rollForward(replay, home, store, copy, from[0], Long.parseLong(from[1]), to, work.resolve("shard-"
                    + copy.shard()).resolve("binlog"));
        }
        Restore.deleteTree(work);
    }

    /** Unpacks and prepares one copy into {@code dir}/data; the binlog position it holds (file, offset). */
    private static String[] unpackAndPrepare(BackupTool tool, BackupStore store, BackupManifest.PhysicalCopy copy,
                                             Path dir) throws Exception {
        Path data = Files.createDirectories(dir.resolve("data"));
        Path log = dir.resolve("mariadb-backup.log");
        Process unpack = new ProcessBuilder(tool.mbstream().toString(), "-x", "-C", data.toString())
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(log.toFile()).start();
        try (OutputStream in = unpack.getOutputStream()) {
            StreamParts.restore(store, copy.stream(), in);
        } catch (IOException | RuntimeException e) {
            unpack.destroyForcibly();
            throw e;
        }
        run(unpack, "unpacking shard " + copy.shard() + "'s copy", log);
        Process prepare = new ProcessBuilder(tool.backup().toString(), "--no-defaults", "--prepare",
                "--target-dir=" + data).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        run(prepare, "preparing shard " + copy.shard() + "'s copy", log);
        for (String name : BINLOG_INFO) {
            Path info = data.resolve(name);
            if (Files.isRegularFile(info)) {
                String[] fields = Files.readString(info).trim().split("\\s+");
                if (fields.length < 2) {
                    throw new IllegalStateException("shard " + copy.shard() + "'s " + name + " names no position: "
                            + String.join(" ", fields));
                }
                return fields;
            }
        }
        throw new IllegalStateException("shard " + copy.shard() + "'s copy holds no " + String.join(" or ", BINLOG_INFO)
                + ": the position to roll it forward from is unknown");
    }

    /** Replays the shard's kept binlog from the copy's position to the cut's. */
    private void rollForward(BinlogReplay replay, NewHome home, BackupStore store, BackupManifest.PhysicalCopy copy,
                             String fromFile, long fromPosition, BackupManifest.ShardPosition to, Path dir) throws Exception {
        if (fromFile.equals(to.file()) && fromPosition == to.position()) {
            say.accept("shard " + copy.shard() + ": its copy is at the cut (" + to.file() + ":" + to.position() + ")");
            return;
        }
        Files.createDirectories(dir);
        List<Path> files = new ArrayList<>();
        for (BackupManifest.BinlogFile f : copy.binlogs()) {
            if (f.name().compareTo(fromFile) < 0) {
                continue;
            }
            Path path = dir.resolve(f.name());
            try (OutputStream out = Files.newOutputStream(path)) {
                StreamParts.restore(store, f.parts(), out);
            }
            files.add(path);
        }
        if (files.isEmpty() || !files.get(0).getFileName().toString().equals(fromFile)) {
            throw new IllegalStateException("shard " + copy.shard() + "'s copy is at " + fromFile + ":" + fromPosition
                    + ", and the binlog kept with it begins later: the backup cannot be rolled forward to its cut");
        }
        replay.replay(home.links().endpoint(copy.shard()), files, fromPosition, to.position());
        say.accept("shard " + copy.shard() + ": rolled its copy forward from " + fromFile + ":" + fromPosition + " to the cut's "
                + to.file() + ":" + to.position());
    }

    private static void run(Process p, String what, Path log) throws IOException, InterruptedException {
        if (!p.waitFor(2, TimeUnit.HOURS)) {
            p.destroyForcibly();
            throw new IOException(what + " did not end within 2 hours");
        }
        if (p.exitValue() != 0) {
            List<String> lines = Files.readAllLines(log);
            throw new IOException(what + " failed: " + String.join("\n", lines.subList(Math.max(0, lines.size() - 15),
                    lines.size())));
        }
    }
}
