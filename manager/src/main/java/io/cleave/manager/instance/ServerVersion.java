package io.cleave.manager.instance;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** A server's version, e.g. 11.4.5 or 8.4.3. */
public record ServerVersion(int major, int minor, int patch) implements Comparable<ServerVersion> {

    private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+)");

    public static ServerVersion parse(String text) {
        Matcher m = VERSION.matcher(text);
        if (!m.find()) {
            throw new IllegalArgumentException("no version number in '" + text + "'");
        }
        return new ServerVersion(Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)));
    }

    public boolean atLeast(int major, int minor) {
        return this.major > major || (this.major == major && this.minor >= minor);
    }

    @Override
    public int compareTo(ServerVersion o) {
        int c = Integer.compare(major, o.major);
        if (c == 0) {
            c = Integer.compare(minor, o.minor);
        }
        return c != 0 ? c : Integer.compare(patch, o.patch);
    }

    @Override
    public String toString() {
        return major + "." + minor + "." + patch;
    }
}
