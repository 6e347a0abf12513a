package io.cleave.manager.supervisor;

/** Told about every state change of an instance (on a supervisor thread: return quickly). */
@FunctionalInterface
public interface InstanceListener {

    void stateChanged(InstanceStatus status, InstanceState previous);
}
