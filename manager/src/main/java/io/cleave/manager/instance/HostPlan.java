package io.cleave.manager.instance;

import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.host.HostFacts;
import io.cleave.manager.host.Storage;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The plan of a home's instances on this host: what the host has, what each instance gets, and
 * the notes worth reading before anything starts.
 *
 * @param notes    warnings that do not stop the plan (memory nearly full, options the server may not know)
 */
public record HostPlan(CleaveConfig config, ServerBinary binary, HostFacts host,
                       List<InstancePlan> instances, List<String> notes) {

    public HostPlan {
        instances = List.copyOf(instances);
        notes = List.copyOf(notes);
    }

    /** Every device holding datadirs or logs, by name, in the order the instances first use them. */
    public Map<String, Storage> devices() {
        Map<String, Storage> devices = new LinkedHashMap<>();
        for (InstancePlan p : instances) {
            devices.putIfAbsent(p.dataStorage().deviceName(), p.dataStorage());
            devices.putIfAbsent(p.logStorage().deviceName(), p.logStorage());
        }
        return devices;
    }
}
