package io.cleave.manager.daemon;

import io.cleave.manager.instance.InstancePlan;
import io.cleave.manager.instance.ServerDefaults;
import io.cleave.manager.instance.Setting;
import io.cleave.manager.instance.SettingGroup;
import io.cleave.manager.supervisor.InstanceState;
import io.cleave.manager.supervisor.InstanceSupervisor;
import io.cleave.manager.supervisor.ReadinessProbe;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Reads back from each running shard the values its plan decided ({@code SELECT @@GLOBAL...}) and
 * logs what the server actually runs: a server may adjust a value, and a shard adopted from an
 * earlier daemon still runs the my.cnf it was started with until it restarts.
 */
final class AppliedSettings {

    private static final Logger log = LoggerFactory.getLogger(AppliedSettings.class);

    private final ReadinessProbe shards;

    /** @param shards connects to a shard as the shard account */
    AppliedSettings(ReadinessProbe shards) {
        this.shards = shards;
    }

    void check(List<InstanceSupervisor> supervisors) {
        for (InstanceSupervisor s : supervisors) {
            if (s.state() != InstanceState.RUNNING) {
                continue;
            }
            InstancePlan plan = s.plan();
            List<Setting> planned = checked(plan);
            try {
                Map<String, String> running = globals(plan.port(), planned);
                List<String> differences = new ArrayList<>();
                for (Setting setting : planned) {
                    String actual = running.get(setting.option());
                    if (actual != null && !ServerDefaults.sameValue(actual, setting.value())) {
                        differences.add(setting.option() + " = " + actual + " (planned " + setting.value() + ")");
                    }
                }
                String doublewrite = running.entrySet().stream().filter(e -> e.getKey().contains("doublewrite") || e.getKey().contains("atomic"))
                        .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", "));
                if (differences.isEmpty()) {
                    log.info("{}: the server runs its plan ({} options read back){}", plan.name(), planned.size(),
                            doublewrite.isEmpty() ? "" : "; it decided " + doublewrite);
                } else {
                    log.warn("{}: the server does not run its plan: {}{}", plan.name(), String.join(", ", differences),
                            s.status().adopted() ? "; it was started before this daemon with an older my.cnf: restart it to apply the plan"
                                    : "; the server adjusted them");
                }
            } catch (SQLException e) {
                log.warn("{}: could not read back its settings: {}", plan.name(), e.getMessage());
            }
        }
    }

    /** Tuning the server exposes as global variables of the same name (paths and server.options are not read back). */
    static List<Setting> checked(InstancePlan plan) {
        return plan.settings().stream()
                .filter(s -> s.outcome() == Setting.Outcome.WRITTEN || s.outcome() == Setting.Outcome.SERVER_DEFAULT)
                .filter(s -> s.group() != SettingGroup.IDENTITY && s.group() != SettingGroup.OPTIONS && s.option().matches("[a-z0-9_]+"))
                .filter(s -> !s.option().equals("log_bin") && !s.option().equals("innodb_log_group_home_dir"))
                .toList();
    }

    private Map<String, String> globals(int port, List<Setting> settings) throws SQLException {
        String select = settings.stream().map(s -> "@@GLOBAL." + s.option()).collect(Collectors.joining(", ", "SELECT ", ""));
        Map<String, String> out = new LinkedHashMap<>();
        try (Connection c = shards.connect(port);
             Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(select)) {
            rs.next();
            for (int i = 0; i < settings.size(); i++) {
                out.put(settings.get(i).option(), rs.getString(i + 1));
            }
        }
        return out;
    }
}
