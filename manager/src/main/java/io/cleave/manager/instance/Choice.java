package io.cleave.manager.instance;

import java.util.Optional;

/**
 * What the planner wants one option to be, and why, before it is compared with the server's
 * defaults and the config's server.options.
 *
 * @param pinned  written even when it equals the server's default (paths and addresses: the file
 *                says where everything is, whatever the server would assume)
 * @param missing why this flavour/version has no such option, when it has none (the choice is then
 *                shown as left out, never written)
 */
public record Choice(SettingGroup group, String option, String value, String reason, boolean pinned,
                     Optional<String> missing) {

    public static Choice of(SettingGroup group, String option, Object value, String reason) {
        return new Choice(group, option, String.valueOf(value), reason, false, Optional.empty());
    }

    public static Choice pinned(SettingGroup group, String option, Object value, String reason) {
        return new Choice(group, option, String.valueOf(value), reason, true, Optional.empty());
    }

    /** An option the server lacks: shown with why it is left out. */
    public static Choice missing(SettingGroup group, String option, String why) {
        return new Choice(group, option, "", why, false, Optional.of(why));
    }
}
