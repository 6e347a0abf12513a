package io.cleave.router.plan;

/** The statement cannot be planned correctly; becomes a {@link Plan.Refuse}. */
final class PlanningException extends RuntimeException {

    static final int NOT_SUPPORTED = 1235;
    static final String NOT_SUPPORTED_STATE = "42000";

    final int code;
    final String sqlState;

    PlanningException(String message) {
        this(NOT_SUPPORTED, NOT_SUPPORTED_STATE, message);
    }

    PlanningException(int code, String sqlState, String message) {
        super(message);
        this.code = code;
        this.sqlState = sqlState;
    }
}
