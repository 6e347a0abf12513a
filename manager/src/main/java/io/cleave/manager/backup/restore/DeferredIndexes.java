package io.cleave.manager.backup.restore;

import java.util.ArrayList;
import java.util.List;

/**
 * A CREATE TABLE split in two: the table with its primary key only, into which rows load fast (in
 * key order, no secondary index to maintain row by row), and the secondary indexes to add after
 * the rows are in, in one ALTER TABLE that builds each index by sorting. A table with foreign keys
 * keeps its indexes (a constraint needs its index from the start).
 */
record DeferredIndexes(String createWithoutIndexes, List<String> indexes) {

    static DeferredIndexes split(String create) {
        String[] lines = create.split("\n");
        if (lines.length < 3 || create.contains("FOREIGN KEY")) {
            return new DeferredIndexes(create, List.of());
        }
        List<String> kept = new ArrayList<>();
        List<String> indexes = new ArrayList<>();
        int close = lines.length - 1;
        while (close > 0 && !lines[close].startsWith(")")) {
            close--;
        }
        for (int i = 1; i < close; i++) {
            String def = lines[i].strip();
            if (def.endsWith(",")) {
                def = def.substring(0, def.length() - 1);
            }
            if (def.startsWith("KEY ") || def.startsWith("UNIQUE KEY ") || def.startsWith("FULLTEXT KEY ")
                    || def.startsWith("SPATIAL KEY ") || def.startsWith("INDEX ")) {
                indexes.add(def);
            } else {
                kept.add(def);
            }
        }
        if (indexes.isEmpty() || kept.isEmpty()) {
            return new DeferredIndexes(create, List.of());
        }
        StringBuilder b = new StringBuilder(lines[0]).append('\n');
        for (int i = 0; i < kept.size(); i++) {
            b.append("  ").append(kept.get(i)).append(i < kept.size() - 1 ? ",\n" : "\n");
        }
        for (int i = close; i < lines.length; i++) {
            b.append(lines[i]).append(i < lines.length - 1 ? "\n" : "");
        }
        return new DeferredIndexes(b.toString(), List.copyOf(indexes));
    }

    /** The ALTER TABLE that adds every deferred index to {@code table} (quoted), or null when none was deferred. */
    String alter(String table) {
        if (indexes.isEmpty()) {
            return null;
        }
        StringBuilder b = new StringBuilder("ALTER TABLE ").append(table);
        for (int i = 0; i < indexes.size(); i++) {
            b.append(i == 0 ? " ADD " : ", ADD ").append(indexes.get(i));
        }
        return b.toString();
    }
}
