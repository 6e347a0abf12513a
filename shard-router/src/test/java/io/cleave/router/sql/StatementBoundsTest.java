package io.cleave.router.sql;

import io.cleave.router.sql.lex.SqlLexer;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.sql.lex.StatementBounds;
import io.cleave.router.sql.lex.TokenBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Statements of a text, split where the server splits them: compound bodies keep their semicolons. */
class StatementBoundsTest {

    /** The statements of {@code sql}, as their text. */
    private static List<String> statements(String sql) {
        TokenBuffer tokens = new TokenBuffer();
        new SqlLexer(SqlMode.DEFAULT).lex(sql.getBytes(StandardCharsets.UTF_8), tokens);
        List<String> out = new ArrayList<>();
        int start = 0;
        while (start < tokens.size()) {
            int end = StatementBounds.end(tokens, start);
            if (end > start) {
                out.add(tokens.text(start, end - 1));
            }
            start = end + 1;
        }
        return out;
    }

    @Test
    void plainStatementsEndAtTheirSemicolons() {
        assertThat(statements("SET @a = 1; CALL p(@a); SELECT CASE WHEN 1 THEN 2 END")).containsExactly(
                "SET @a = 1", "CALL p(@a)", "SELECT CASE WHEN 1 THEN 2 END");
        assertThat(statements("BEGIN; SELECT IF(1, 2, 3); COMMIT")).as("a bare BEGIN starts a transaction")
                .containsExactly("BEGIN", "SELECT IF(1, 2, 3)", "COMMIT");
        assertThat(statements("DROP TABLE IF EXISTS t; SELECT REPEAT('a', 2) FROM t FOR UPDATE; SELECT 1"))
                .containsExactly("DROP TABLE IF EXISTS t", "SELECT REPEAT('a', 2) FROM t FOR UPDATE", "SELECT 1");
    }

    @Test
    void aProcedureBodyIsOneStatement() {
        String procedure = "CREATE PROCEDURE test_procedure (P_I INTEGER)\n BEGIN\n DECLARE V_I INTEGER;\n"
                + " SET V_I = P_I;\n END";
        assertThat(statements(procedure + ";\n")).containsExactly(procedure);
        assertThat(statements(procedure + "; CALL test_procedure(1)")).containsExactly(procedure, "CALL test_procedure(1)");
    }

    @Test
    void nestedBlocksLoopsHandlersAndCaseStatements() {
        String body = "CREATE DEFINER=`root`@`localhost` PROCEDURE p(IN n INT, OUT total INT) COMMENT 'x;y'"
                + " MODIFIES SQL DATA SQL SECURITY INVOKER BEGIN"
                + " DECLARE done INT DEFAULT 0; DECLARE c CURSOR FOR SELECT v FROM t FOR UPDATE;"
                + " DECLARE CONTINUE HANDLER FOR SQLSTATE '02000', NOT FOUND SET done = 1;"
                + " DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;"
                + " SET total = 0; lbl: LOOP FETCH c INTO n; IF done THEN LEAVE lbl; ELSEIF n > 2 THEN SET total = total"
                + " + IF(n > 3, 1, 0); ELSE ITERATE lbl; END IF; END LOOP lbl;"
                + " WHILE total < 10 DO SET total = total + 1; END WHILE;"
                + " REPEAT SET total = total - 1; UNTIL total < 5 END REPEAT;"
                + " CASE total WHEN 4 THEN SELECT CASE WHEN total > 1 THEN 'a' ELSE 'b' END; ELSE BEGIN END; END CASE;"
                + " FOR i IN 1..3 DO INSERT INTO t VALUES (i); END FOR;"
                + " END";
        assertThat(statements(body + "; SELECT 1")).containsExactly(body, "SELECT 1");
    }

    @Test
    void functionsTriggersEventsAndCompoundStatementsOutsideAProgram() {
        String function = "CREATE FUNCTION f(x INT) RETURNS VARCHAR(10) CHARACTER SET utf8mb4 DETERMINISTIC"
                + " BEGIN IF x > 0 THEN RETURN 'p'; END IF; RETURN 'n'; END";
        String bodyWithoutBegin = "CREATE FUNCTION g(x INT) RETURNS INT IF x > 0 THEN RETURN 1; ELSE RETURN 2; END IF";
        String trigger = "CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW BEGIN SET NEW.v = 1; SET NEW.w = 2; END";
        String event = "CREATE EVENT e ON SCHEDULE EVERY 1 HOUR DO BEGIN DELETE FROM t; INSERT INTO t VALUES (1); END";
        String anonymous = "BEGIN NOT ATOMIC DECLARE x INT; SET x = 1; SELECT x; END";
        String ifStatement = "IF @a > 1 THEN SELECT 1; ELSE SELECT 2; END IF";
        assertThat(statements(String.join("; ", function, bodyWithoutBegin, trigger, event, anonymous, ifStatement)))
                .containsExactly(function, bodyWithoutBegin, trigger, event, anonymous, ifStatement);
        assertThat(statements("CREATE FUNCTION h() RETURNS INT RETURN 1; SELECT h()"))
                .containsExactly("CREATE FUNCTION h() RETURNS INT RETURN 1", "SELECT h()");
    }
}
