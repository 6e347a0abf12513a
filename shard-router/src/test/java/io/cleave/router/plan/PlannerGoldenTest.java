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
 * against {@link TestTopologies#fourShards()} and printed with {@link PlanPrinter}.
 * {@code plan/key-literals-golden.json} lists {sql, plan, shards}: key literals in every form the
 * server reads, with the shards {@link Explainer} names for their values (sbtest1 hashed by id:
 * 470 on shard 1, 2599 on shard 3, 0 on shard 0; warehouses 1-25, 26-50, 51-75, 76- on shards
 * 0..3; accounts hashed by the string tenant). Adding a case is adding an entry. With
 * -Dgolden.update=true the files are rewritten with what the planner does now (review the diff
 * before committing it).
 */
class PlannerGoldenTest {

    @TestFactory
    List<DynamicTest> goldenPlans() throws IOException {
        return golden("planner-golden.json", false);
    }

    @TestFactory
    List<DynamicTest> keyLiteralRoutes() throws IOException {
        return golden("key-literals-golden.json", true);
    }

    private static List<DynamicTest> golden(String file, boolean withShards) throws IOException {
        ObjectMapper json = new ObjectMapper();
        JsonNode cases;
        try (InputStream in = PlannerGoldenTest.class.getResourceAsStream("/plan/" + file)) {
            cases = json.readTree(in);
        }
        Router router = new Router(TestTopologies.fourShards());
        Explainer explainer = new Explainer(router);
        boolean update = Boolean.getBoolean("golden.update");
        List<DynamicTest> tests = new ArrayList<>();
        ArrayNode rewritten = json.createArrayNode();
        for (JsonNode c : cases) {
            String sql = c.get("sql").asText();
            byte[] bytes = sql.getBytes(StandardCharsets.UTF_8);
            String expected = c.path("plan").asText("");
            String actual = PlanPrinter.print(router.analyze(bytes, SqlMode.DEFAULT, new Analysis()));
            ObjectNode out = rewritten.addObject();
            out.put("sql", sql);
            out.put("plan", actual);
            String name = sql.length() > 90 ? sql.substring(0, 90) + "..." : sql;
            tests.add(DynamicTest.dynamicTest(name, () -> assertThat(actual).isEqualTo(expected)));
            if (withShards) {
                String shards = explainer.explain(bytes, SqlMode.DEFAULT, TestTopologies.map(TestTopologies.fourShards()))
                        .shards();
                out.put("shards", shards);
                String expectedShards = c.path("shards").asText("");
                tests.add(DynamicTest.dynamicTest("shards of " + name,
                        () -> assertThat(shards).isEqualTo(expectedShards)));
            }
        }
        if (update) {
            Files.writeString(Path.of("src/test/resources/plan/" + file),
                    json.writerWithDefaultPrettyPrinter().writeValueAsString(rewritten) + "\n");
            return List.of();
        }
        return tests;
    }
}
