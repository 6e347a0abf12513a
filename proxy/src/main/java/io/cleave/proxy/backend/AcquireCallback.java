package io.cleave.proxy.backend;

/** Told, on the pool's event loop, when a backend connection is available or cannot be had. */
public interface AcquireCallback {

    void acquired(BackendConnection connection);

    void failed(Throwable cause);
}
