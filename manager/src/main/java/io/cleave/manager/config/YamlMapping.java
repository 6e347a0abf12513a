package io.cleave.manager.config;

import org.yaml.snakeyaml.nodes.MappingNode;
import org.yaml.snakeyaml.nodes.Node;
import org.yaml.snakeyaml.nodes.NodeTuple;
import org.yaml.snakeyaml.nodes.ScalarNode;
import org.yaml.snakeyaml.nodes.SequenceNode;
import org.yaml.snakeyaml.nodes.Tag;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads one YAML mapping of the config with the field path it sits at. Every key read is noted,
 * so {@link #rejectUnknownKeys()} can name any key nobody asked for (a typo stays an error, never
 * a silently ignored setting). Readers record problems and return defaults, so loading goes on
 * and reports every problem at once.
 */
final class YamlMapping {

    private final Node node;
    private final String path;
    private final Problems problems;
    private final Map<String, NodeTuple> entries = new LinkedHashMap<>();
    private final Set<String> known = new LinkedHashSet<>();

    YamlMapping(Node node, String path, Problems problems) {
        this.node = node;
        this.path = path;
        this.problems = problems;
        if (node instanceof MappingNode mapping) {
            for (NodeTuple tuple : mapping.getValue()) {
                String key = tuple.getKeyNode() instanceof ScalarNode s ? s.getValue() : String.valueOf(tuple.getKeyNode());
                if (entries.putIfAbsent(key, tuple) != null) {
                    problems.add(tuple.getKeyNode(), field(key), "appears twice in the same mapping");
                }
            }
        } else if (node != null && !isNull(node)) {
            problems.add(node, path.isEmpty() ? "(top level)" : path, "expected a mapping of keys to values");
        }
    }

    String field(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    String path() {
        return path;
    }

    int line() {
        return Problems.lineOf(node);
    }

    int lineOf(String key) {
        NodeTuple tuple = entries.get(key);
        return tuple == null ? line() : Problems.lineOf(tuple.getValueNode());
    }

    Node node() {
        return node;
    }

    Problems problems() {
        return problems;
    }

    /** The value node, or empty when the key is absent or null. */
    Optional<Node> value(String key) {
        known.add(key);
        NodeTuple tuple = entries.get(key);
        if (tuple == null || isNull(tuple.getValueNode())) {
            return Optional.empty();
        }
        return Optional.of(tuple.getValueNode());
    }

    boolean has(String key) {
        return value(key).isPresent();
    }

    Optional<String> string(String key) {
        return value(key).flatMap(v -> scalar(v, field(key)));
    }

    String string(String key, String defaultValue) {
        return string(key).orElse(defaultValue);
    }

    Optional<Long> longValue(String key) {
        Optional<String> text = string(key);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Long.parseLong(text.get().trim()));
        } catch (NumberFormatException e) {
            problems.add(lineOf(key), field(key), "'" + text.get() + "' is not a whole number");
            return Optional.empty();
        }
    }

    int integer(String key, int defaultValue, int min, int max) {
        Optional<Long> value = longValue(key);
        if (value.isEmpty()) {
            return defaultValue;
        }
        if (value.get() < min || value.get() > max) {
            problems.add(lineOf(key), field(key), value.get() + " is out of range: expected " + min + ".." + max);
            return defaultValue;
        }
        return value.get().intValue();
    }

    /** {@code true} or {@code false} (YAML's spelling); anything else is a problem. */
    boolean bool(String key, boolean defaultValue) {
        Optional<String> text = string(key);
        if (text.isEmpty()) {
            return defaultValue;
        }
        String t = text.get().trim().toLowerCase(java.util.Locale.ROOT);
        if (t.equals("true") || t.equals("false")) {
            return t.equals("true");
        }
        problems.add(lineOf(key), field(key), "'" + text.get() + "' is not a boolean: expected true or false");
        return defaultValue;
    }

    long size(String key, long defaultValue) {
        Optional<String> text = string(key);
        if (text.isEmpty()) {
            return defaultValue;
        }
        try {
            return ByteSize.parse(text.get());
        } catch (IllegalArgumentException e) {
            problems.add(lineOf(key), field(key), e.getMessage());
            return defaultValue;
        }
    }

    YamlMapping mapping(String key) {
        return new YamlMapping(value(key).orElse(null), field(key), problems);
    }

    /** The items of a list value; a missing or null key is an empty list. */
    List<Node> list(String key) {
        Optional<Node> value = value(key);
        if (value.isEmpty()) {
            return List.of();
        }
        if (!(value.get() instanceof SequenceNode sequence)) {
            problems.add(value.get(), field(key), "expected a list, e.g. [a, b] or one '- item' per line");
            return List.of();
        }
        return sequence.getValue();
    }

    List<String> stringList(String key) {
        List<String> out = new ArrayList<>();
        List<Node> items = list(key);
        for (int i = 0; i < items.size(); i++) {
            scalar(items.get(i), field(key) + "[" + i + "]").ifPresent(out::add);
        }
        return out;
    }

    /** All keys of this mapping, in file order, without marking them as known. */
    Set<String> keys() {
        return entries.keySet();
    }

    /** Marks every key as unknown that no reader asked for. */
    void rejectUnknownKeys() {
        for (Map.Entry<String, NodeTuple> e : entries.entrySet()) {
            if (!known.contains(e.getKey())) {
                problems.add(e.getValue().getKeyNode(), field(e.getKey()),
                        "unknown key: expected one of " + String.join(", ", known));
            }
        }
    }

    Optional<String> scalar(Node value, String field) {
        if (value instanceof ScalarNode s) {
            return isNull(s) ? Optional.empty() : Optional.of(s.getValue());
        }
        problems.add(value, field, "expected a single value, not a " + (value instanceof SequenceNode ? "list" : "mapping"));
        return Optional.empty();
    }

    static boolean isNull(Node node) {
        return node instanceof ScalarNode && Tag.NULL.equals(node.getTag());
    }
}
