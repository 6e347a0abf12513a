package io.cleave.manager.schema;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Where the shards' schemas differ: an object some shards have and others lack, or whose
 * description differs between them (a column, an index, a routine's body).
 */
public final class SchemaDrift {

    /**
     * One object that differs. {@code missingOn}: the shards that lack it (empty when every shard
     * has it but not alike); {@code detail}: how, for a person.
     */
    public record Difference(String object, List<Integer> presentOn, List<Integer> missingOn, String detail) {
        public Difference {
            presentOn = List.copyOf(presentOn);
            missingOn = List.copyOf(missingOn);
        }

        @Override
        public String toString() {
            return object + ": " + detail;
        }
    }

    private SchemaDrift() {
    }

    /** The differences between the shards' catalogs ({@link ShardCatalog#read}), by shard. */
    public static List<Difference> between(Map<Integer, Map<String, String>> catalogs) {
        TreeSet<String> objects = new TreeSet<>();
        catalogs.values().forEach(c -> objects.addAll(c.keySet()));
        List<Difference> out = new ArrayList<>();
        for (String object : objects) {
            List<Integer> present = new ArrayList<>();
            List<Integer> missing = new ArrayList<>();
            Map<String, List<Integer>> byDescription = new LinkedHashMap<>();
            catalogs.forEach((shard, catalog) -> {
                String description = catalog.get(object);
                if (description == null) {
                    missing.add(shard);
                } else {
                    present.add(shard);
                    byDescription.computeIfAbsent(description, d -> new ArrayList<>()).add(shard);
                }
            });
            if (!missing.isEmpty()) {
                out.add(new Difference(object, present, missing, "on shard(s) " + present + ", missing on shard(s) "
                        + missing));
            } else if (byDescription.size() > 1) {
                out.add(new Difference(object, present, List.of(), "differs between shards: " + describe(byDescription)));
            }
        }
        return out;
    }

    /** Each group of shards with the description it has. */
    private static String describe(Map<String, List<Integer>> byDescription) {
        List<String> parts = new ArrayList<>();
        byDescription.forEach((description, shards) -> parts.add("shard(s) " + shards + " have" + shorten(description)));
        return String.join(" | ", parts);
    }

    private static String shorten(String description) {
        String d = description.startsWith(";") ? description.substring(1) : " " + description;
        return d.length() > 300 ? d.substring(0, 300) + "..." : d;
    }
}
