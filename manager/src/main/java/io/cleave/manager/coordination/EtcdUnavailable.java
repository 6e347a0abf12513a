package io.cleave.manager.coordination;

/** etcd did not answer in time, or refused: callers decide what that means (a primary fences). */
public final class EtcdUnavailable extends Exception {

    public EtcdUnavailable(String message, Throwable cause) {
        super(message, cause);
    }
}
