package io.cleave.manager.supervisor;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;

/** A server process on this host, either our child (exit code known) or adopted by pid. */
public final class LocalMysqldProcess implements MysqldProcess {

    private final ProcessHandle handle;
    private final CompletableFuture<OptionalInt> exit;

    private LocalMysqldProcess(ProcessHandle handle, CompletableFuture<OptionalInt> exit) {
        this.handle = handle;
        this.exit = exit;
    }

    public static LocalMysqldProcess launched(Process process) {
        return new LocalMysqldProcess(process.toHandle(), process.onExit().thenApply(p -> OptionalInt.of(p.exitValue())));
    }

    public static LocalMysqldProcess adopted(ProcessHandle handle) {
        return new LocalMysqldProcess(handle, handle.onExit().thenApply(h -> OptionalInt.empty()));
    }

    @Override
    public long pid() {
        return handle.pid();
    }

    @Override
    public boolean isAlive() {
        return handle.isAlive();
    }

    @Override
    public CompletableFuture<OptionalInt> onExit() {
        return exit;
    }

    @Override
    public Optional<Instant> startedAt() {
        return handle.info().startInstant();
    }

    @Override
    public void terminate() {
        handle.destroy();
    }

    @Override
    public void kill() {
        handle.destroyForcibly();
    }
}
