package io.cleave.router.plan;

import java.util.List;

/**
 * The names of the connection-bound state one execution of a statement creates or releases: the
 * temporary tables of CREATE/DROP TEMPORARY TABLE, the lock names of GET_LOCK()/RELEASE_LOCK(),
 * the statement name of PREPARE/DEALLOCATE PREPARE. Resolved from the plan's {@link PinSpec} with
 * the execution's text and values. A name that is not written out (a parameter, an expression)
 * leaves {@code complete} false: such state is only known gone when the session resets.
 *
 * @param names      what the statement creates or takes
 * @param released   what it drops or releases
 * @param releaseAll RELEASE_ALL_LOCKS()
 */
public record PinNames(Pin pin, List<String> names, List<String> released, boolean releaseAll, boolean complete) {

    public static final PinNames NONE = new PinNames(Pin.NONE, List.of(), List.of(), false, true);

    public PinNames {
        names = List.copyOf(names);
        released = List.copyOf(released);
    }
}
