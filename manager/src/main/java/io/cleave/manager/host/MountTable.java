package io.cleave.manager.host;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The mounts of this process (/proc/self/mountinfo), to find the filesystem and device under a path. */
public final class MountTable {

    private final List<Mount> mounts;

    public MountTable(List<Mount> mounts) {
        this.mounts = List.copyOf(mounts);
    }

    /** Parses mountinfo text: {@code id parent major:minor root mount-point options [optional...] - type source super-options}. */
    public static MountTable parse(List<String> lines) {
        List<Mount> mounts = new ArrayList<>();
        for (String line : lines) {
            String[] f = line.trim().split(" ");
            int dash = List.of(f).indexOf("-");
            if (f.length < 6 || dash < 6 || dash + 2 >= f.length) {
                continue;
            }
            boolean readOnly = List.of(f[5].split(",")).contains("ro");
            mounts.add(new Mount(Path.of(unescape(f[4])), f[2], f[dash + 1], unescape(f[dash + 2]), readOnly));
        }
        return new MountTable(mounts);
    }

    /** The mount a path lives on: the longest mount point above it, the last one mounted when several share it. */
    public Optional<Mount> mountOf(Path path) {
        Mount best = null;
        for (Mount m : mounts) {
            if (path.startsWith(m.mountPoint())
                    && (best == null || m.mountPoint().getNameCount() >= best.mountPoint().getNameCount())) {
                best = m;
            }
        }
        return Optional.ofNullable(best);
    }

    /** mountinfo writes space, tab, newline and backslash as octal escapes ({@code \040}). */
    static String unescape(String s) {
        if (s.indexOf('\\') < 0) {
            return s;
        }
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 3 < s.length() && s.substring(i + 1, i + 4).matches("[0-7]{3}")) {
                out.append((char) Integer.parseInt(s.substring(i + 1, i + 4), 8));
                i += 3;
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
