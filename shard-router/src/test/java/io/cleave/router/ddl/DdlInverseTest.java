package io.cleave.router.ddl;

import io.cleave.router.sql.ast.Ddl;
import io.cleave.router.sql.digest.StatementDigest;
import io.cleave.router.sql.lex.SqlLexer;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.parse.SqlParser;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The statement that undoes a DDL where it applied, and none where undoing could lose something. */
class DdlInverseTest {

    private static String inverse(String sql) {
        TokenBuffer tokens = new TokenBuffer();
        new SqlLexer(SqlMode.DEFAULT).lex(sql.getBytes(StandardCharsets.UTF_8), tokens);
        StatementDigest digest = new StatementDigest();
        digest.compute(tokens);
        return DdlInverse.of((Ddl) new SqlParser().parse(tokens, digest), tokens);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', nullValues = "none", value = {
            "CREATE TABLE t (id INT PRIMARY KEY) | DROP TABLE `t`",
            "CREATE TABLE shop.t LIKE shop.u | DROP TABLE `shop`.`t`",
            "CREATE TABLE IF NOT EXISTS t (id INT) | none",
            "CREATE OR REPLACE TABLE t (id INT) | none",
            "CREATE TEMPORARY TABLE t (id INT) | none",
            "CREATE DATABASE shop | DROP DATABASE `shop`",
            "CREATE INDEX i ON t (a, b) | DROP INDEX `i` ON `t`",
            "CREATE UNIQUE INDEX i ON t (a) | DROP INDEX `i` ON `t`",
            "CREATE VIEW v AS SELECT 1 | DROP VIEW `v`",
            "CREATE PROCEDURE p() BEGIN SELECT 1; END | DROP PROCEDURE `p`",
            "CREATE DEFINER = CURRENT_USER FUNCTION f() RETURNS INT RETURN 1 | DROP FUNCTION `f`",
            "CREATE TRIGGER tr BEFORE INSERT ON t FOR EACH ROW SET NEW.a = 1 | DROP TRIGGER `tr`",
            "CREATE SEQUENCE s START WITH 10 | DROP SEQUENCE `s`",
            "RENAME TABLE a TO b, c TO d | RENAME TABLE `d` TO `c`, `b` TO `a`",
            "ALTER TABLE t ADD COLUMN c INT DEFAULT 1 | ALTER TABLE `t` DROP COLUMN `c`",
            "ALTER TABLE t ADD c VARCHAR(10) | ALTER TABLE `t` DROP COLUMN `c`",
            "ALTER TABLE t ADD INDEX ix (a) | ALTER TABLE `t` DROP INDEX `ix`",
            "ALTER TABLE t ADD UNIQUE KEY uk (a) | ALTER TABLE `t` DROP INDEX `uk`",
            "ALTER TABLE t RENAME TO u | RENAME TABLE `u` TO `t`",
            "ALTER TABLE t ADD COLUMN c INT, ADD COLUMN d INT | none",
            "ALTER TABLE t ADD COLUMN IF NOT EXISTS c INT | none",
            "ALTER TABLE t ADD PRIMARY KEY (a) | none",
            "ALTER TABLE t MODIFY c BIGINT | none",
            "DROP TABLE t | none",
            "TRUNCATE TABLE t | none",
    })
    void undoesWhatLosesNothing(String ddl, String expected) {
        assertThat(inverse(ddl)).isEqualTo(expected);
    }
}
