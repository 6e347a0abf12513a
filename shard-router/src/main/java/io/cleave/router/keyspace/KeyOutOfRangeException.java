package io.cleave.router.keyspace;

/** A key that no bucket of a keyspace covers (a range function's gap or end). */
public final class KeyOutOfRangeException extends RuntimeException {

    public KeyOutOfRangeException(String message) {
        super(message);
    }
}
