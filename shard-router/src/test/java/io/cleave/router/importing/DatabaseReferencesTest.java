package io.cleave.router.importing;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class DatabaseReferencesTest {

    private final DatabaseReferences shop = DatabaseReferences.of("shop");

    @Test
    void findsTheDatabaseAsAQualifierInEveryQuoting() {
        assertThat(shop.namedIn("select `shop`.`items`.`id` AS `id` from `shop`.`items`")).as("a view's definition")
                .isTrue();
        assertThat(shop.namedIn("RETURN (SELECT COUNT(*) FROM shop.items)")).isTrue();
        assertThat(shop.namedIn("SELECT * FROM `shop`.items")).isTrue();
        assertThat(shop.namedIn("SELECT * FROM \"shop\".\"items\"")).as("ANSI_QUOTES").isTrue();
        assertThat(shop.namedIn("SELECT * FROM shop . items")).as("spaces around the dot").isTrue();
        assertThat(shop.namedIn("SELECT * FROM SHOP.Items")).as("another case").isTrue();
        assertThat(shop.namedIn("BEGIN SELECT 1; INSERT INTO shop.log VALUES (1); END")).isTrue();
        assertThat(shop.namedIn("PREPARE s FROM 'SELECT * FROM shop.items'")).as("SQL in a string").isTrue();
        assertThat(shop.namedIn("SELECT shop.twice(2)")).as("a routine of the database").isTrue();
    }

    @Test
    void otherNamesAreNotTheDatabase() {
        assertThat(shop.namedIn("SELECT * FROM myshop.items")).isFalse();
        assertThat(shop.namedIn("SELECT * FROM shop_old.items")).isFalse();
        assertThat(shop.namedIn("SELECT * FROM `my shop`.items")).isFalse();
        assertThat(shop.namedIn("SELECT shop FROM reports.shop")).as("a column and a table named shop").isFalse();
        assertThat(shop.namedIn("SELECT * FROM items")).isFalse();
        assertThat(shop.namedIn(null)).isFalse();
    }

    @Test
    void quotesInTheNameAreDoubledInsideQuotes() {
        DatabaseReferences odd = DatabaseReferences.of("a`b.c");
        assertThat(odd.namedIn("SELECT * FROM `a``b.c`.t")).isTrue();
        assertThat(odd.namedIn("SELECT * FROM `a``b`.t")).isFalse();
    }
}
