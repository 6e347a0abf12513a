package io.cleave.manager.instance;

/** No usable server binary: the message says what was tried and what would work. */
public final class BinaryException extends RuntimeException {

    public BinaryException(String message) {
        super(message);
    }

    public BinaryException(String message, Throwable cause) {
        super(message, cause);
    }
}
