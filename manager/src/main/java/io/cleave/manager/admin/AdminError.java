package io.cleave.manager.admin;

/** A request the admin API cannot serve, with the HTTP status and the message the caller sees. */
public final class AdminError extends RuntimeException {

    public static final int BAD_REQUEST = 400;
    public static final int NOT_FOUND = 404;
    public static final int CONFLICT = 409;
    public static final int BAD_GATEWAY = 502;
    public static final int UNAVAILABLE = 503;

    private final int status;

    public AdminError(int status, String message) {
        super(message);
        this.status = status;
    }

    public int status() {
        return status;
    }
}
