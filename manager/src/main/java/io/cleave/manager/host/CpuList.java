package io.cleave.manager.host;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Pattern;

/** A set of CPU numbers, written as Linux and taskset write them: {@code 0-3,8-11}. */
public record CpuList(List<Integer> cpus) {

    private static final Pattern TEXT = Pattern.compile("\\d+(-\\d+)?(,\\d+(-\\d+)?)*");

    public CpuList {
        cpus = List.copyOf(new TreeSet<>(cpus));
    }

    public static CpuList of(Collection<Integer> cpus) {
        return new CpuList(List.copyOf(cpus));
    }

    public static boolean isValid(String text) {
        return TEXT.matcher(text.trim()).matches();
    }

    /** @throws IllegalArgumentException when the text is not a CPU list such as {@code 0-7} or {@code 0,2,4-6} */
    public static CpuList parse(String text) {
        String t = text.trim();
        if (t.isEmpty()) {
            return new CpuList(List.of());
        }
        if (!isValid(t)) {
            throw new IllegalArgumentException("'" + text + "' is not a CPU list: expected e.g. \"0-7\" or \"0,2,4-6\"");
        }
        List<Integer> cpus = new ArrayList<>();
        for (String part : t.split(",")) {
            int dash = part.indexOf('-');
            int from = Integer.parseInt(dash < 0 ? part : part.substring(0, dash));
            int to = dash < 0 ? from : Integer.parseInt(part.substring(dash + 1));
            for (int c = from; c <= to; c++) {
                cpus.add(c);
            }
        }
        return new CpuList(cpus);
    }

    public int size() {
        return cpus.size();
    }

    public boolean isEmpty() {
        return cpus.isEmpty();
    }

    public boolean contains(int cpu) {
        return cpus.contains(cpu);
    }

    public boolean containsAll(CpuList other) {
        return cpus.containsAll(other.cpus);
    }

    public boolean intersects(CpuList other) {
        return other.cpus.stream().anyMatch(cpus::contains);
    }

    public CpuList intersect(CpuList other) {
        return of(cpus.stream().filter(other.cpus::contains).toList());
    }

    /** Ranges joined by commas, e.g. {@code 0-3,8}. */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < cpus.size()) {
            int j = i;
            while (j + 1 < cpus.size() && cpus.get(j + 1) == cpus.get(j) + 1) {
                j++;
            }
            out.append(out.length() == 0 ? "" : ",").append(cpus.get(i));
            if (j > i) {
                out.append('-').append(cpus.get(j));
            }
            i = j + 1;
        }
        return out.toString();
    }
}
