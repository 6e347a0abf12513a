package io.cleave.router.routine;

import io.cleave.router.topology.RoutineRule;
import io.cleave.router.topology.Topology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The stored routines of a home, as the default shard's catalog lists them (every shard has the
 * same, since routines are created on every shard), and where a CALL of each can run. Immutable.
 */
public final class Routines {

    /** A procedure or function: its schema, name, parameter names in order and what its body does. */
    public record Routine(String schema, String name, boolean procedure, List<String> parameters,
                          RoutineProfile profile) {
        public Routine {
            parameters = List.copyOf(parameters);
        }
    }

    public static final Routines NONE = new Routines(List.of());

    private final Map<String, Routine> procedures = new HashMap<>();
    private final Map<String, Routine> functions = new HashMap<>();

    public Routines(List<Routine> routines) {
        for (Routine r : routines) {
            (r.procedure() ? procedures : functions).put(key(r.schema(), r.name()), r);
        }
    }

    /** The procedure {@code name} ({@code schema.name} or a name in {@code schema}), or null. */
    public Routine procedure(String schema, String name) {
        return procedures.get(qualified(schema, name));
    }

    /**
     * Where a CALL of {@code procedure} runs: by the routine's declared key, or on the default shard
     * when what it and every routine it calls name lives there.
     */
    public RoutinePlacement place(Routine procedure, Topology topology) {
        RoutineRule rule = topology.routineRule(procedure.name());
        int argument = -1;
        if (rule != null) {
            for (int i = 0; i < procedure.parameters().size(); i++) {
                if (procedure.parameters().get(i).equalsIgnoreCase(rule.parameter())) {
                    argument = i;
                }
            }
        }
        return RoutinePlacement.decide(procedure.name(), rule, argument, closure(procedure), topology);
    }

    /** The profiles of {@code routine} and of every routine it calls, directly or through others. */
    public List<RoutineProfile> closure(Routine routine) {
        Map<Routine, Boolean> seen = new LinkedHashMap<>();
        Deque<Routine> todo = new ArrayDeque<>(List.of(routine));
        while (!todo.isEmpty()) {
            Routine r = todo.poll();
            if (seen.putIfAbsent(r, true) != null) {
                continue;
            }
            for (String p : r.profile().procedures()) {
                Routine called = procedures.get(qualified(r.schema(), p));
                if (called != null) {
                    todo.add(called);
                }
            }
            for (String f : r.profile().functions()) {
                Routine called = functions.get(qualified(r.schema(), f));
                if (called != null) {
                    todo.add(called);
                }
            }
        }
        List<RoutineProfile> out = new ArrayList<>();
        seen.keySet().forEach(r -> out.add(r.profile()));
        return out;
    }

    /** {@code schema.name} keys: a name without a schema is looked up in {@code schema}. */
    private static String qualified(String schema, String name) {
        int dot = name.indexOf('.');
        return dot >= 0 ? key(name.substring(0, dot), name.substring(dot + 1)) : key(schema == null ? "" : schema, name);
    }

    private static String key(String schema, String name) {
        return (schema + "." + name).toLowerCase(Locale.ROOT);
    }
}
