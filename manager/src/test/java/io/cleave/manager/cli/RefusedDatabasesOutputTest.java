package io.cleave.manager.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** How {@code cleave status} shows the databases a promotion refused and the tables it set aside for them. */
class RefusedDatabasesOutputTest {

    private static String printed(Map<String, String> refused, Map<String, List<String>> held) {
        StringWriter s = new StringWriter();
        try (PrintWriter out = new PrintWriter(s)) {
            StatusCommand.printRefusedDatabases(refused, held, out);
        }
        return s.toString().replace(System.lineSeparator(), "\n");
    }

    @Test
    void eachRefusedDatabaseWithWhyAndItsTablesSetAside() {
        assertThat(printed(Map.of("shop", "cut short", "crm", "cut short too"), Map.of("shop", List.of("items", "members"))))
                .isEqualTo("""

                        refused databases (clients naming them get error 1044):
                          crm: cut short too
                          shop: cut short
                            tables set aside in Cleave's schema on every shard (views and routines reading them fail):\
                         items, members
                        """);
    }

    @Test
    void tablesThatCouldNotBeReadAreSaidUnknownAndNothingIsPrintedWithoutARefusal() {
        assertThat(printed(Map.of("shop", "cut short"), null)).endsWith("""
                  shop: cut short
                    tables set aside: unknown (shard 0 could not be read)
                """);
        assertThat(printed(Map.of(), Map.of())).isEmpty();
        assertThat(printed(null, null)).isEmpty();
    }
}
