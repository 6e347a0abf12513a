package io.cleave.manager.held;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HeldTableTest {

    @Test
    void theHeldNameDependsOnTheOriginalOnlyAndFitsWhateverItsLength() {
        HeldTable items = HeldTable.of("shop", "items");
        assertThat(items.heldAs()).as("the same after a restart").isEqualTo(HeldTable.of("shop", "items").heldAs())
                .startsWith("held_").hasSize(5 + 24).matches("held_[0-9a-f]{24}");
        assertThat(HeldTable.of("Shop", "items").heldAs()).as("names are exact").isNotEqualTo(items.heldAs());
        assertThat(HeldTable.of("shop", "Items").heldAs()).isNotEqualTo(items.heldAs());
        // Without a separator "ab"."c" and "a"."bc" would be held under one name.
        assertThat(HeldTable.of("ab", "c").heldAs()).isNotEqualTo(HeldTable.of("a", "bc").heldAs());
        String longest = "x".repeat(64);
        assertThat(HeldTable.of(longest, longest).heldAs()).hasSizeLessThanOrEqualTo(64);
    }

    @Test
    void holdingAndRestoringRenameBetweenTheDatabaseAndCleavesSchemaQuotingEveryName() {
        HeldTable t = HeldTable.of("my`db", "order items");
        assertThat(t.holdSql()).isEqualTo("RENAME TABLE `my``db`.`order items` TO `cleave`.`" + t.heldAs() + "`");
        assertThat(t.restoreSql()).isEqualTo("RENAME TABLE `cleave`.`" + t.heldAs() + "` TO `my``db`.`order items`");
    }
}
