package io.cleave.manager.supervisor;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;

/** A running server process, launched by this daemon or adopted from an earlier one. */
public interface MysqldProcess {

    long pid();

    boolean isAlive();

    /** Completes when the process has exited, with its exit code when known (only for our own children). */
    CompletableFuture<OptionalInt> onExit();

    Optional<Instant> startedAt();

    /** Asks for a clean shutdown (SIGTERM). */
    void terminate();

    /** Ends it now (SIGKILL). */
    void kill();
}
