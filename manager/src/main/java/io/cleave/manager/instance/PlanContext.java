package io.cleave.manager.instance;

import io.cleave.manager.config.CleaveConfig;

import java.util.Map;

/**
 * What every instance's choices depend on beyond the instance itself.
 *
 * @param dataSharing how many instances keep their datadir on each device (by device name): they share its io capacity
 */
record PlanContext(CleaveConfig config, ServerBinary binary, boolean runAsRoot, Map<String, Integer> dataSharing) {

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
