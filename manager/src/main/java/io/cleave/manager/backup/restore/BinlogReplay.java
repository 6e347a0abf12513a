package io.cleave.manager.backup.restore;

import io.cleave.manager.daemon.ShardEndpoint;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Replays a stretch of a shard's archived binlog into a restored shard: the server's binlog tool
 * ({@code mariadb-binlog}) turns the events into statements (row events as BINLOG statements the
 * server applies itself, so every column type comes back exact), piped into the server's client on
 * the shard's socket, without writing them to the restored shard's own binlog.
 */
final class BinlogReplay {

    private final Path binlogTool;
    private final Path client;
    private final Path logs;

    BinlogReplay(Path binlogTool, Path client, Path logs) {
        this.binlogTool = binlogTool;
        this.client = client;
        this.logs = logs;
    }

    /** Replays {@code files} from {@code start} in the first to {@code stop} in the last. */
    void replay(ShardEndpoint shard, List<Path> files, long start, long stop) throws IOException, InterruptedException {
        List<String> read = new ArrayList<>(List.of(binlogTool.toString(), "--no-defaults", "--disable-log-bin",
                "--start-position=" + start, "--stop-position=" + stop));
        for (Path f : files) {
            read.add(f.toString());
        }
        List<String> apply = List.of(client.toString(), "--no-defaults", "--skip-ssl", "--binary-mode",
                "--socket=" + shard.socket(), "--user=" + shard.user(), "--password=" + shard.secret());
        Files.createDirectories(logs);
        Path readErr = logs.resolve("replay-" + shard.index() + "-read.err");
        Path applyErr = logs.resolve("replay-" + shard.index() + "-apply.err");
        ProcessBuilder reader = new ProcessBuilder(read).redirectError(ProcessBuilder.Redirect.appendTo(readErr.toFile()));
        ProcessBuilder applier = new ProcessBuilder(apply).redirectError(ProcessBuilder.Redirect.appendTo(applyErr.toFile()))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        List<Process> pipeline = ProcessBuilder.startPipeline(List.of(reader, applier));
        for (Process p : pipeline) {
            if (!p.waitFor(2, TimeUnit.HOURS)) {
                pipeline.forEach(Process::destroyForcibly);
                throw new IOException("replaying shard " + shard.index() + "'s binlog did not end within 2 hours");
            }
        }
        if (pipeline.get(0).exitValue() != 0) {
            throw new IOException("reading shard " + shard.index() + "'s archived binlog failed: " + Files.readString(readErr));
        }
        if (pipeline.get(1).exitValue() != 0) {
            throw new IOException("applying shard " + shard.index() + "'s archived binlog failed: " + Files.readString(applyErr));
        }
    }
}
