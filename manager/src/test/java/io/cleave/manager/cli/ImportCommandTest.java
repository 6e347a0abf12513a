package io.cleave.manager.cli;

import io.cleave.manager.imports.ImportStatus;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ImportCommandTest {

    @Test
    void thePasswordCanComeFromTheEnvironmentInsteadOfTheCommandLine() {
        Map<String, String> env = Map.of("CLEAVE_SOURCE_PASSWORD", "p@ss word");
        assertThat(ImportCommand.withPassword("mysql://app@db1:3306/shop", env))
                .isEqualTo("mysql://app:p%40ss%20word@db1:3306/shop");
        assertThat(ImportCommand.withPassword("mysql://app:given@db1:3306/shop", env)).as("one in the URL wins")
                .isEqualTo("mysql://app:given@db1:3306/shop");
        assertThat(ImportCommand.withPassword("mysql://app@db1/shop", Map.of())).isEqualTo("mysql://app@db1/shop");
    }

    @Test
    void theProgressLineWeighsTheCopyMostAndEndsFull() {
        ImportStatus copying = status("copying", 500, 1000, new ImportStatus.Table("t1", "sharded on k by id", 1000, 500,
                "copying"));
        assertThat(ImportProgressLine.fraction(copying)).isEqualTo(0.4);
        assertThat(ImportProgressLine.line(copying)).contains("[##########..............]  40% copying  rows 500/1,000")
                .contains("t1 500/1,000");
        assertThat(ImportProgressLine.fraction(status("cutting over", 1000, 1000))).isEqualTo(0.9);
        assertThat(ImportProgressLine.fraction(status("done", 1000, 1000))).isEqualTo(1.0);
        assertThat(ImportProgressLine.line(status("attaching", 0, 0))).contains("  0% attaching");
    }

    private static ImportStatus status(String state, long copied, long total, ImportStatus.Table... tables) {
        return new ImportStatus(state, "mysql://app@db1:3306/shop", "shop", 3, copied, total, 0, List.of(tables), List.of(),
                List.of(), null, null, null);
    }
}
