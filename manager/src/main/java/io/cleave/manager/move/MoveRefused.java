package io.cleave.manager.move;

/** A move request that cannot be carried out as asked; nothing was moved. */
public final class MoveRefused extends RuntimeException {

    public enum Kind { BAD_REQUEST, NOT_FOUND, CONFLICT }

    private final Kind kind;

    public MoveRefused(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public Kind kind() {
        return kind;
    }
}
