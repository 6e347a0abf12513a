package io.cleave.manager.daemon;

import io.cleave.manager.supervisor.InstanceSupervisor;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The instances the daemon supervises, in index order; a scale adds and removes some while it runs. */
final class Supervisors {

    private volatile List<InstanceSupervisor> all = List.of();

    List<InstanceSupervisor> all() {
        return all;
    }

    synchronized void set(List<InstanceSupervisor> supervisors) {
        all = List.copyOf(supervisors);
    }

    synchronized void add(InstanceSupervisor s) {
        List<InstanceSupervisor> next = new ArrayList<>(all);
        next.removeIf(x -> x.plan().index() == s.plan().index());
        next.add(s);
        next.sort(Comparator.comparingInt(x -> x.plan().index()));
        all = List.copyOf(next);
    }

    synchronized void remove(InstanceSupervisor s) {
        List<InstanceSupervisor> next = new ArrayList<>(all);
        next.remove(s);
        all = List.copyOf(next);
    }

    /** The supervisor of shard {@code index}, or null. */
    InstanceSupervisor byIndex(int index) {
        for (InstanceSupervisor s : all) {
            if (s.plan().index() == index) {
                return s;
            }
        }
        return null;
    }
}
