package io.cleave.bench.compare;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The order of measurements: every configuration once per round, alternating, and every other
 * round in reverse (A B C, C B A, A B C ...), so a drift of the host over the run (a neighbour's
 * build, a warming disk) does not favour whichever configuration always goes first.
 */
public final class Schedule {

    private Schedule() {
    }

    public record Slot(int round, Configuration configuration) {
    }

    public static List<Slot> of(List<Configuration> configurations, int rounds) {
        if (rounds < 1) {
            throw new IllegalArgumentException("rounds must be at least 1: " + rounds);
        }
        List<Slot> slots = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            List<Configuration> order = new ArrayList<>(configurations);
            if (round % 2 == 0) {
                Collections.reverse(order);
            }
            for (Configuration c : order) {
                slots.add(new Slot(round, c));
            }
        }
        return slots;
    }
}
