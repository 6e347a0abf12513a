package io.cleave.proxy.backend;

/** Told, on the pool's event loop, when a backend connection is available or cannot be had. */
public interface AcquireCallback {

    void acquired(BackendConnection connection);

    void failed(Throwable cause);

    /** Whose statement waits if the pool has to put this request in line; null when nobody's in particular. */
    default ConnectionWaiter waiter() {
        return null;
    }
}
