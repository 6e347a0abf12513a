package io.cleave.manager.standby;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.home.JsonFile;

import java.util.Optional;

/**
 * A home's part in a standby pair, kept in {@code state/standby.json}; a home without the file has no standby.
 *
 * @param role     what this home is
 * @param epoch    the pair's epoch: 1 once the standby is attached; a promotion makes the next
 * @param primary  the primary's admin URL (on the standby; null on the primary)
 * @param semiSync whether the primary's shards wait for the standby's acknowledgement at every commit (on the primary)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record StandbyState(HostRole role, long epoch, String primary, boolean semiSync) {

    static final String FILE = "standby.json";

    public static JsonFile<StandbyState> file(CleaveHome home) {
        return new JsonFile<>(home.state().resolve(FILE), StandbyState.class);
    }

    public static Optional<StandbyState> of(CleaveHome home) {
        return file(home).load();
    }

    StandbyState withSemiSync(boolean on) {
        return new StandbyState(role, epoch, primary, on);
    }
}
