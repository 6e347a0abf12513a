package io.cleave.manager.instance;

import io.cleave.manager.config.CleaveConfig;

import java.util.Map;

/**
 * What every instance's choices depend on beyond the instance itself.
 *
 * @param dataSharing how many instances keep their datadir on each device (by device name)
 * @param logSharing  how many instances keep their redo log on each device (by device name)
 */
record PlanContext(CleaveConfig config, ServerBinary binary, boolean runAsRoot, Map<String, Integer> dataSharing,
                   Map<String, Integer> logSharing) {

    Flavour flavour() {
        return binary.flavour();
    }

    ServerVersion version() {
        return binary.version();
    }

    boolean mariadb() {
        return binary.flavour() == Flavour.MARIADB;
    }

    String server() {
        return binary.flavour().displayName() + " " + binary.version();
    }
}
