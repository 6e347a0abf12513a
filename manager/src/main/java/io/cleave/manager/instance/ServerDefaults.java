package io.cleave.manager.instance;

import io.cleave.manager.config.ByteSize;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The options one server binary knows and their built-in defaults, as its
 * {@code --no-defaults --verbose --help} lists them. Planning writes a my.cnf line only where a
 * chosen value differs from the default, and leaves out options the binary does not know.
 * When the list could not be read, every option is taken as known and every value as different.
 */
public final class ServerDefaults {

    private final Map<String, String> defaults;
    private final String unknownReason;

    private ServerDefaults(Map<String, String> defaults, String unknownReason) {
        this.defaults = Map.copyOf(defaults);
        this.unknownReason = unknownReason;
    }

    /** Defaults that could not be read, with why. */
    public static ServerDefaults unknown(String reason) {
        return new ServerDefaults(Map.of(), reason);
    }

    /**
     * Reads the table after {@code Variables (--variable-name=value)}: one option per line, its
     * name, spaces, its value. Names are stored with underscores, as my.cnf and SHOW VARIABLES write them.
     */
    public static ServerDefaults parse(String helpOutput) {
        List<String> lines = helpOutput.lines().toList();
        int start = -1;
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).startsWith("Variables (--variable-name=value)")) {
                start = i;
                break;
            }
        }
        if (start < 0) {
            return unknown("its --verbose --help printed no table of variables");
        }
        Map<String, String> defaults = new HashMap<>();
        int i = start + 1;
        while (i < lines.size() && !lines.get(i).startsWith("---")) {
            i++;
        }
        for (i++; i < lines.size() && !lines.get(i).isBlank(); i++) {
            String line = lines.get(i);
            int space = line.indexOf(' ');
            String name = (space < 0 ? line : line.substring(0, space)).replace('-', '_');
            String value = space < 0 ? "" : line.substring(space).trim();
            defaults.put(name, value);
        }
        return defaults.isEmpty() ? unknown("its table of variables was empty") : new ServerDefaults(defaults, null);
    }

    public boolean known() {
        return unknownReason == null;
    }

    /** Why the defaults are unknown; empty when they are known. */
    public Optional<String> unknownReason() {
        return Optional.ofNullable(unknownReason);
    }

    /** Whether the server has this option; true when the defaults are unknown (the planner's own knowledge decides). */
    public boolean has(String option) {
        return !known() || defaults.containsKey(option);
    }

    public Optional<String> defaultOf(String option) {
        return Optional.ofNullable(defaults.get(option)).filter(v -> !v.equals("(No default value)"));
    }

    /** Whether {@code value} is what the server uses anyway: {@code ON}, {@code TRUE} and {@code 1} match, and {@code 256M} matches 268435456. */
    public boolean isDefault(String option, String value) {
        return defaultOf(option).map(d -> sameValue(d, value)).orElse(false);
    }

    /** Whether two spellings of an option's value mean the same: {@code ON} and {@code 1}, {@code 256M} and {@code 268435456}. */
    public static boolean sameValue(String a, String b) {
        return normalize(a).equals(normalize(b));
    }

    static String normalize(String value) {
        String v = value.trim();
        switch (v.toUpperCase(Locale.ROOT)) {
            case "ON", "TRUE", "YES" -> {
                return "1";
            }
            case "OFF", "FALSE", "NO" -> {
                return "0";
            }
            default -> {
            }
        }
        if (v.matches("\\d+[KMGTkmgt]")) {
            return String.valueOf(ByteSize.parse(v));
        }
        return v.toLowerCase(Locale.ROOT);
    }
}
