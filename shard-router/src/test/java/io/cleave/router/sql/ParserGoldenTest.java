package io.cleave.router.sql;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cleave.router.sql.ast.AstPrinter;
import io.cleave.router.sql.parse.SqlParser;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Golden parser cases: {@code sql/parser-golden.json} lists {tag, sql, ast} where ast is the
 * {@link AstPrinter} rendering. Adding a case is one entry. Tags: sysbench, tpcc, connector
 * (what JDBC drivers send at connect time), and the leading keyword for the rest.
 */
class ParserGoldenTest {

    record Case(String tag, String sql, String ast) {
    }

    static Stream<Arguments> cases() throws IOException {
        try (InputStream in = ParserGoldenTest.class.getResourceAsStream("/sql/parser-golden.json")) {
            List<Case> cases = new ObjectMapper().readValue(in, new TypeReference<List<Case>>() { });
            return cases.stream().map(c -> Arguments.of(c.tag(), c.sql(), c.ast()));
        }
    }

    @ParameterizedTest(name = "[{0}] {1}")
    @MethodSource("cases")
    void parsesToTheExpectedTree(String tag, String sql, String ast) {
        assertThat(AstPrinter.print(SqlParser.parse(sql))).isEqualTo(ast);
    }
}
