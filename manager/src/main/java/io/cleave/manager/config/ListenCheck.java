package io.cleave.manager.config;

import java.net.BindException;

/** Says why a listen address could not be bound: the port is taken, or the address is not one of this host's. */
public final class ListenCheck {

    private ListenCheck() {
    }

    /** The refusal for binding {@code what} to {@code address:port}, from the bind's failure. */
    public static String bindRefusal(String address, int port, String what, BindException e) {
        String reason = e.getMessage() == null ? "" : e.getMessage();
        if (reason.contains("assign requested address") || reason.contains("not available")) {
            return what + " cannot listen on " + address + ": no network interface of this host has that address ("
                    + reason + "): use one of this host's addresses, 0.0.0.0 for all, or 127.0.0.1";
        }
        return "port " + port + " on " + address + " for " + what + " is taken by another process (another daemon?) ("
                + reason + "): free it, or choose another port";
    }
}
