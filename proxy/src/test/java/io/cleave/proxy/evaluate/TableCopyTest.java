package io.cleave.proxy.evaluate;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TableCopyTest {

    private static final String CREATE = """
            CREATE TABLE `orders` (
              `id` int(11) NOT NULL,
              `cust_id` int(11) NOT NULL,
              `note` varchar(20) CHARACTER SET latin1 COLLATE latin1_bin DEFAULT NULL,
              `ratio` double DEFAULT NULL,
              `fl` float DEFAULT NULL,
              `at` timestamp(3) NULL DEFAULT NULL,
              `twice` int(11) GENERATED ALWAYS AS (`id` * 2) VIRTUAL,
              PRIMARY KEY (`cust_id`,`id`),
              KEY `fk_cust` (`cust_id`),
              CONSTRAINT `fk_cust` FOREIGN KEY (`cust_id`) REFERENCES `customers` (`id`),
              CONSTRAINT `positive` CHECK (`id` > 0)
            ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci
             PARTITION BY HASH (`cust_id`)
            PARTITIONS 4""";

    private static final List<String[]> COLUMNS = List.of(
            new String[] {"id", "int", "0"}, new String[] {"cust_id", "int", "0"},
            new String[] {"note", "varchar", "0"}, new String[] {"ratio", "double", "0"},
            new String[] {"fl", "float", "0"}, new String[] {"at", "timestamp", "0"},
            new String[] {"twice", "int", "1"});

    @Test
    void theTemporaryTwinKeepsColumnsKeysAndChecksButNoForeignKeysOrPartitions() {
        TableCopy copy = TableCopy.of("shop", "orders", CREATE, COLUMNS);

        assertThat(copy.temporaryDdl()).isEqualTo("""
                CREATE TEMPORARY TABLE `shop`.`orders` (
                  `id` int(11) NOT NULL,
                  `cust_id` int(11) NOT NULL,
                  `note` varchar(20) CHARACTER SET latin1 COLLATE latin1_bin DEFAULT NULL,
                  `ratio` double DEFAULT NULL,
                  `fl` float DEFAULT NULL,
                  `at` timestamp(3) NULL DEFAULT NULL,
                  `twice` int(11) GENERATED ALWAYS AS (`id` * 2) VIRTUAL,
                  PRIMARY KEY (`cust_id`,`id`),
                  KEY `fk_cust` (`cust_id`),
                  CONSTRAINT `positive` CHECK (`id` > 0)
                ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci""");
    }

    @Test
    void everyStoredValueIsReadExactlyAndTheGeneratedOneIsComputedAgain() {
        TableCopy copy = TableCopy.of(null, "orders", CREATE, COLUMNS);

        assertThat(copy.gatherSelect("(`orders`.`cust_id` < 5)", 11)).isEqualTo("SELECT `id`, `cust_id`, HEX(`note`),"
                + " `ratio`, CAST(`fl` AS DOUBLE), UNIX_TIMESTAMP(`at`) FROM `orders` WHERE (`orders`.`cust_id` < 5)"
                + " LIMIT 11");
        assertThat(copy.insertHead()).isEqualTo("INSERT INTO `orders` (`id`, `cust_id`, `note`, `ratio`, `fl`, `at`) VALUES ");
        assertThat(copy.hasTimestamps()).isTrue();
        StringBuilder out = new StringBuilder();
        byte[][] row = {b("7"), b("3"), b("27E9"), b("-0"), b("1.1754943508222875e-38"), b("1614834367.891")};
        copy.appendRow(out, i -> row[i]);
        byte[][] zero = {b("8"), b("3"), null, b("0.30000000000000004"), null, b("0.000")};
        copy.appendRow(out, i -> zero[i]);
        assertThat(out).hasToString("(7, 3, X'27E9', -0e0, 1.1754943508222875e-38, FROM_UNIXTIME(1614834367.891))"
                + "(8, 3, NULL, 0.30000000000000004e0, NULL, '0000-00-00 00:00:00')");
    }

    @Test
    void aValueThatDidNotReadAsExpectedIsNeverWritten() {
        TableCopy copy = TableCopy.of(null, "orders", CREATE, COLUMNS);
        byte[][] row = {b("1); DROP TABLE x; --"), b("3"), null, null, null, null};

        assertThatThrownBy(() -> copy.appendRow(new StringBuilder(), i -> row[i]))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("column id");
    }

    @Test
    void underAnsiQuotesTheServersDoubleQuotedNamesAreRead() {
        String ansi = CREATE.replace('`', '"');

        assertThat(TableCopy.of(null, "orders", ansi, COLUMNS).temporaryDdl())
                .startsWith("CREATE TEMPORARY TABLE `orders` (\n  \"id\" int(11) NOT NULL,");
    }

    @Test
    void whatCannotBeCopiedExactlyIsNamed() {
        assertThatThrownBy(() -> TableCopy.of(null, "orders", CREATE, COLUMNS.subList(0, 6)))
                .hasMessageContaining("did not read alike");
        assertThatThrownBy(() -> TableCopy.of(null, "places", "CREATE TABLE `places` (\n  `p` point NOT NULL\n)"
                + " ENGINE=InnoDB", List.<String[]>of(new String[] {"p", "point", "0"})))
                .hasMessageContaining("places.p of type point");
        assertThatThrownBy(() -> TableCopy.of(null, "v", "CREATE ALGORITHM=UNDEFINED VIEW `v` AS select 1",
                List.<String[]>of(new String[] {"1", "int", "0"}))).hasMessageContaining("not a plain table");
        assertThatThrownBy(() -> TableCopy.of(null, "e", "CREATE TABLE `e` (\n  `k` enum('a','?') DEFAULT NULL\n)"
                + " ENGINE=InnoDB", List.<String[]>of(new String[] {"k", "enum", "0"})))
                .hasMessageContaining("did not read back exactly");
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
