package io.cleave.manager.instance;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns the planner's choices into settings: compared with the server's defaults (equal: no line),
 * checked against the options it has (missing: left out), and given way to server.options.
 */
final class SettingResolver {

    private final PlanContext context;
    private final ServerDefaults defaults;
    /** server.options by normalized name (underscores), with the name and value as written. */
    private final Map<String, Map.Entry<String, String>> options = new LinkedHashMap<>();
    private final List<String> notes = new ArrayList<>();

    SettingResolver(PlanContext context, ServerDefaults defaults, Map<String, String> serverOptions) {
        this.context = context;
        this.defaults = defaults;
        serverOptions.forEach((k, v) -> options.put(normalize(k), Map.entry(k, v)));
        for (String key : options.keySet()) {
            String bare = key.startsWith("loose_") ? key.substring("loose_".length()) : key;
            if (defaults.known() && !defaults.has(bare) && !key.startsWith("loose_")) {
                notes.add("server.options sets " + options.get(key).getKey() + ", which " + context.server()
                        + " does not list among its options: the server may refuse to start (prefix it with loose- to make it optional)");
            }
        }
    }

    List<Setting> resolve(List<Choice> choices) {
        List<Setting> out = new ArrayList<>();
        for (Choice c : choices) {
            Setting.Outcome outcome = outcomeOf(c);
            String reason = outcome == Setting.Outcome.NOT_IN_SERVER && c.missing().isEmpty()
                    ? context.server() + " has no such option (wanted: " + c.reason() + ")" : c.reason();
            out.add(new Setting(c.group(), c.option(), c.value(), reason, outcome));
        }
        options.values().forEach(e -> out.add(new Setting(SettingGroup.OPTIONS, e.getKey(), e.getValue(),
                "server.options in " + context.config().source(), Setting.Outcome.FROM_OPTIONS)));
        return out;
    }

    List<String> notes() {
        return notes;
    }

    private Setting.Outcome outcomeOf(Choice c) {
        if (c.missing().isPresent()) {
            return Setting.Outcome.NOT_IN_SERVER;
        }
        if (options.containsKey(normalize(c.option())) || options.containsKey("loose_" + normalize(c.option()))) {
            return Setting.Outcome.REPLACED;
        }
        if (!c.pinned() && !defaults.has(c.option())) {
            return Setting.Outcome.NOT_IN_SERVER;
        }
        if (!c.pinned() && defaults.isDefault(c.option(), c.value())) {
            return Setting.Outcome.SERVER_DEFAULT;
        }
        return Setting.Outcome.WRITTEN;
    }

    static String normalize(String option) {
        return option.replace('-', '_');
    }
}
