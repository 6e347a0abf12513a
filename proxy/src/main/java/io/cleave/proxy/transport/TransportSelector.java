package io.cleave.proxy.transport;

import java.util.List;
import java.util.function.Function;

/**
 * Turns {@code proxy.transport} into the transport to run on. {@code auto} takes the first of
 * {@link #AUTO_ORDER} this host can run and says why it passed over the others; a transport named
 * explicitly that cannot run stops the start with its cause, since the operator asked for it.
 */
public final class TransportSelector {

    /**
     * What {@code auto} tries, best first. epoll leads: io_uring did not beat it on the relay
     * benchmark here (bench/RESULTS.md, "io_uring against epoll").
     */
    public static final List<Transport> AUTO_ORDER = List.of(Transport.EPOLL, Transport.IO_URING, Transport.NIO);

    private final Function<Transport, Throwable> unavailability;

    /** {@code unavailability} answers why a transport cannot run, or null when it can. */
    TransportSelector(Function<Transport, Throwable> unavailability) {
        this.unavailability = unavailability;
    }

    /** Asks the native transports themselves (loads their libraries and probes the kernel once). */
    public static TransportSelector ofThisHost() {
        return new TransportSelector(TransportSelector::probe);
    }

    public TransportChoice choose(TransportSetting setting) {
        if (setting != TransportSetting.AUTO) {
            Transport wanted = setting.transport();
            Throwable why = unavailability.apply(wanted);
            if (why != null) {
                throw new IllegalStateException("proxy.transport is " + wanted + " but " + wanted
                        + " cannot run here: " + describe(why) + " (set proxy.transport: auto to fall back)", why);
            }
            return new TransportChoice(wanted, null);
        }
        StringBuilder passedOver = new StringBuilder();
        for (Transport candidate : AUTO_ORDER) {
            Throwable why = unavailability.apply(candidate);
            if (why == null) {
                return new TransportChoice(candidate, passedOver.isEmpty() ? null : passedOver.toString());
            }
            if (!passedOver.isEmpty()) {
                passedOver.append("; ");
            }
            passedOver.append(candidate).append(": ").append(describe(why));
        }
        throw new IllegalStateException("no I/O transport can run here: " + passedOver);
    }

    private static Throwable probe(Transport transport) {
        try {
            return transport.unavailabilityCause();
        } catch (LinkageError e) {
            // The transport's classes or native library are missing from the class path.
            return e;
        }
    }

    /** The innermost useful message: a native load failure wraps the reason the kernel gave. */
    static String describe(Throwable why) {
        Throwable t = why;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String message = t.getMessage() != null ? t.getMessage() : t.getClass().getSimpleName();
        return t == why || why.getMessage() == null ? message : why.getMessage() + " (" + message + ")";
    }
}
