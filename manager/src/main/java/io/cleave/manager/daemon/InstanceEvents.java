package io.cleave.manager.daemon;

import io.cleave.manager.supervisor.InstanceListener;
import io.cleave.manager.supervisor.InstanceState;

/** Lets the proxy follow the shards: their current state, and every change from now on. */
public interface InstanceEvents {

    InstanceState stateOf(int shard);

    /** Registers a listener for state changes of every shard; it is called on supervisor threads. */
    void subscribe(InstanceListener listener);
}
