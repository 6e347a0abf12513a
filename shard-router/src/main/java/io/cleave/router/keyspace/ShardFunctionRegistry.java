package io.cleave.router.keyspace;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Sharding functions by kind. A config names a kind and gives its parameters; adding a kind is one
 * {@link #register} call, not a new code path in the planner.
 */
public final class ShardFunctionRegistry {

    /** Builds a function from its config parameters; throws {@link IllegalArgumentException} naming the bad one. */
    @FunctionalInterface
    public interface Factory {
        ShardFunction create(FunctionParameters parameters);
    }

    /** The config parameters of one function, with typed accessors that fail with the field's name. */
    public interface FunctionParameters {
        int intValue(String name, int defaultValue);

        String stringValue(String name, String defaultValue);

        List<KeyRange> ranges(String name);
    }

    private final Map<String, Factory> factories = new TreeMap<>();

    public static ShardFunctionRegistry standard() {
        ShardFunctionRegistry registry = new ShardFunctionRegistry();
        registry.register(HashShardFunction.KIND, p -> new HashShardFunction(
                p.intValue("buckets", 256),
                KeyType.valueOf(p.stringValue("key_type", "integer").toUpperCase(java.util.Locale.ROOT))));
        registry.register(RangeShardFunction.KIND, p -> new RangeShardFunction(p.ranges("ranges")));
        return registry;
    }

    public void register(String kind, Factory factory) {
        factories.put(kind, factory);
    }

    public boolean knows(String kind) {
        return factories.containsKey(kind);
    }

    public java.util.Set<String> kinds() {
        return factories.keySet();
    }

    public ShardFunction create(String kind, FunctionParameters parameters) {
        Factory factory = factories.get(kind);
        if (factory == null) {
            throw new IllegalArgumentException(
                    "unknown sharding function '" + kind + "': expected one of " + factories.keySet());
        }
        return factory.create(parameters);
    }
}
