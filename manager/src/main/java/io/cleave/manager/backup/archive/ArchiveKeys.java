package io.cleave.manager.backup.archive;

import java.util.ArrayList;
import java.util.List;

/**
 * Where archived binlog bytes are: {@code binlogs/shard-S/FILE/OFFSET-LENGTH.seg}, each segment the
 * bytes of the shard's binlog file FILE from OFFSET, as the server wrote them. A file is archived
 * from its first byte on, so its segments put together are the file (or its first part).
 */
public final class ArchiveKeys {

    static final String ROOT = "binlogs/";

    /** One archived piece of a binlog file. */
    public record Segment(String file, long offset, long length, String key) {
        long end() {
            return offset + length;
        }
    }

    private ArchiveKeys() {
    }

    static String shard(int shard) {
        return ROOT + "shard-" + shard + "/";
    }

    static String segment(int shard, String file, long offset, long length) {
        return shard(shard) + file + "/" + String.format("%016d-%d.seg", offset, length);
    }

    /** The segments among {@code keys} (a listing of {@link #shard}), in file and offset order. */
    public static List<Segment> segments(List<String> keys) {
        List<Segment> out = new ArrayList<>();
        for (String key : keys) {
            String[] parts = key.split("/");
            if (parts.length != 4 || !parts[3].endsWith(".seg")) {
                continue;
            }
            String name = parts[3].substring(0, parts[3].length() - 4);
            int dash = name.indexOf('-');
            out.add(new Segment(parts[2], Long.parseLong(name.substring(0, dash)), Long.parseLong(name.substring(dash + 1)),
                    key));
        }
        out.sort(java.util.Comparator.comparing(Segment::file).thenComparingLong(Segment::offset));
        return out;
    }

    public static String listing(int shard) {
        return shard(shard);
    }
}
