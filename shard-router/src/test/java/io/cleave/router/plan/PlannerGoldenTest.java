package io.cleave.router.plan;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cleave.router.sql.lex.SqlMode;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Golden planner cases: {@code plan/planner-golden.json} lists {sql, plan}; each SQL is planned
 * against {@link TestTopologies#fourShards()} and printed with {@link PlanPrinter}. Adding a case
 * is adding an entry. With -Dgolden.update=true the file is rewritten with what the planner does
 * now (review the diff before committing it).
 */
class PlannerGoldenTest {

    private static final String RESOURCE = "/plan/planner-golden.json";
    private static final Path SOURCE = Path.of("src/test/resources/plan/planner-golden.json");

    @TestFactory
    List<DynamicTest> goldenPlans() throws IOException {
        ObjectMapper json = new ObjectMapper();
        JsonNode cases;
        try (InputStream in = PlannerGoldenTest.class.getResourceAsStream(RESOURCE)) {
            cases = json.readTree(in);
        }
        Router router = new Router(TestTopologies.fourShards());
        boolean update = Boolean.getBoolean("golden.update");
        List<DynamicTest> tests = new ArrayList<>();
        ArrayNode rewritten = json.createArrayNode();
        for (JsonNode c : cases) {
            String sql = c.get("sql").asText();
            String expected = c.path("plan").asText("");
            String actual = PlanPrinter.print(router.analyze(sql.getBytes(StandardCharsets.UTF_8), SqlMode.DEFAULT,
                    new Analysis()));
            ObjectNode out = rewritten.addObject();
            out.put("sql", sql);
            out.put("plan", actual);
            tests.add(DynamicTest.dynamicTest(sql.length() > 90 ? sql.substring(0, 90) + "..." : sql,
                    () -> assertThat(actual).isEqualTo(expected)));
        }
        if (update) {
            Files.writeString(SOURCE, json.writerWithDefaultPrettyPrinter().writeValueAsString(rewritten) + "\n");
            return List.of();
        }
        return tests;
    }
}
