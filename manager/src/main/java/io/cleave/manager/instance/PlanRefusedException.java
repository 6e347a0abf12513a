package io.cleave.manager.instance;

import java.nio.file.Path;
import java.util.List;

/** A plan that cannot work, with every reason and what to change for each. */
public final class PlanRefusedException extends RuntimeException {

    private final List<String> problems;

    public PlanRefusedException(Path config, List<String> problems) {
        super("the plan for " + config + " cannot work:\n  - " + String.join("\n  - ", problems));
        this.problems = List.copyOf(problems);
    }

    public List<String> problems() {
        return problems;
    }
}
