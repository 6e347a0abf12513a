package io.cleave.proxy.frontend;

import io.cleave.router.plan.Pin;
import io.cleave.router.plan.PinNames;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Pins are tracked per shard by what they hold; a null connection stands in for a real one. */
class ConnectionPinsTest {

    private final ConnectionPins pins = new ConnectionPins(2);

    private static PinNames names(Pin pin, List<String> taken, List<String> released, boolean all, boolean complete) {
        return new PinNames(pin, taken, released, all, complete);
    }

    @Test
    void heldUntilTheLastStateIsGone() {
        pins.apply(0, null, names(Pin.TEMPORARY_TABLE, List.of("a"), List.of(), false, true));
        pins.apply(0, null, names(Pin.NAMED_LOCK, List.of("l"), List.of(), false, true));
        pins.apply(0, null, names(Pin.NAMED_LOCK, List.of("l"), List.of(), false, true));
        assertThat(pins.anyShard()).isZero();
        pins.apply(0, null, names(Pin.DROP_TEMPORARY_TABLE, List.of(), List.of("a"), false, true));
        pins.apply(0, null, names(Pin.RELEASE_NAMED_LOCK, List.of(), List.of("l"), false, true));
        assertThat(pins.anyShard()).as("the lock was taken twice").isZero();
        pins.apply(0, null, names(Pin.RELEASE_NAMED_LOCK, List.of(), List.of("l"), false, true));
        assertThat(pins.anyShard()).isEqualTo(-1);
    }

    @Test
    void lockTablesCursorsAndPreparedStatements() {
        pins.apply(1, null, names(Pin.LOCK_TABLES, List.of(), List.of(), false, true));
        pins.cursorOpened(1, null);
        pins.apply(1, null, names(Pin.SQL_PREPARE, List.of("s"), List.of(), false, true));
        pins.apply(1, null, names(Pin.UNLOCK_TABLES, List.of(), List.of(), false, true));
        pins.cursorClosed(1);
        assertThat(pins.anyShard()).isEqualTo(1);
        pins.apply(1, null, names(Pin.SQL_DEALLOCATE, List.of(), List.of("s"), false, true));
        assertThat(pins.anyShard()).isEqualTo(-1);
    }

    @Test
    void releaseAllAndLocksNeverTaken() {
        pins.apply(0, null, names(Pin.NAMED_LOCK, List.of("a", "b"), List.of(), false, true));
        pins.notHeld(0, null, List.of("b"));
        assertThat(pins.anyShard()).isZero();
        pins.apply(0, null, names(Pin.RELEASE_NAMED_LOCK, List.of(), List.of(), true, true));
        assertThat(pins.anyShard()).isEqualTo(-1);
        pins.apply(0, null, names(Pin.RELEASE_NAMED_LOCK, List.of(), List.of("never"), false, true));
        assertThat(pins.anyShard()).as("releasing what was never held pins nothing").isEqualTo(-1);
    }

    @Test
    void stateWithoutANameStaysUntilTheSessionResets() {
        pins.apply(0, null, names(Pin.NAMED_LOCK, List.of(), List.of(), false, false));
        pins.apply(0, null, names(Pin.RELEASE_NAMED_LOCK, List.of(), List.of(), true, true));
        assertThat(pins.anyShard()).isZero();
        assertThat(pins.dropAll()).hasSize(1);
        assertThat(pins.anyShard()).isEqualTo(-1);
    }
}
