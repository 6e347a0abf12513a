package io.cleave.manager.instance;

/**
 * One option of an instance's plan with its outcome: written to my.cnf, or not and why not.
 *
 * @param reason why the planner chose this value (for {@link Outcome#FROM_OPTIONS}: where it came from)
 */
public record Setting(SettingGroup group, String option, String value, String reason, Outcome outcome) {

    public enum Outcome {
        /** Differs from the server's default (or says where things are): a my.cnf line. */
        WRITTEN,
        /** The server's default already is what the planner wants: no line needed. */
        SERVER_DEFAULT,
        /** This server has no such option: left out. */
        NOT_IN_SERVER,
        /** server.options sets this option: the planner's value gives way. */
        REPLACED,
        /** Set by server.options in the config. */
        FROM_OPTIONS;

        /** Whether the option is a line of my.cnf. */
        public boolean written() {
            return this == WRITTEN || this == FROM_OPTIONS;
        }
    }

    public boolean written() {
        return outcome.written();
    }
}
