package io.cleave.router.sql;

import io.cleave.router.sql.digest.DigestKey;
import io.cleave.router.sql.digest.SlotKind;
import io.cleave.router.sql.digest.StatementDigest;
import io.cleave.router.sql.lex.SqlLexer;
import io.cleave.router.sql.lex.TokenBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class StatementDigestTest {

    private final SqlLexer lexer = new SqlLexer();
    private final TokenBuffer tokens = new TokenBuffer();
    private final StatementDigest digest = new StatementDigest();

    private StatementDigest digest(String sql) {
        lexer.lex(sql.getBytes(StandardCharsets.UTF_8), tokens);
        digest.compute(tokens);
        return digest;
    }

    private String key(String sql) {
        return digest(sql).keyString();
    }

    @Test
    void literalsBecomeQuestionMarksAndKeywordsAreUpperCased() {
        assertThat(key("select c from sbtest1 where id=42")).isEqualTo("SELECT c FROM sbtest1 WHERE id = ?");
        assertThat(key("SELECT  c\n FROM sbtest1 /* x */ WHERE id = 7 -- y")).isEqualTo("SELECT c FROM sbtest1 WHERE id = ?");
    }

    @Test
    void sameKeyAndHashForStatementsDifferingInValuesWhitespaceCommentsAndCase() {
        StatementDigest d = digest("SELECT c FROM sbtest1 WHERE id BETWEEN 1 AND 100");
        long h = d.hash();
        DigestKey k = d.toKey();
        StatementDigest d2 = digest("select c   from sbtest1 # note\n where id between 5000 and 5099.5");
        assertThat(d2.hash()).isEqualTo(h);
        assertThat(d2.lookupKey()).isEqualTo(k);
        assertThat(key("SELECT * FROM t WHERE name = 'bob' AND x = _utf8mb4'y' AND b = X'0A' AND c = 0b11 AND d = N'q'"))
                .isEqualTo("SELECT * FROM t WHERE name = ? AND x = ? AND b = ? AND c = ? AND d = ?");
    }

    @Test
    void differentStructureGivesDifferentKeys() {
        assertThat(key("SELECT a FROM t WHERE id IN (1,2)")).isNotEqualTo(key("SELECT a FROM t WHERE id IN (1,2,3)"));
        assertThat(key("SELECT a FROM t WHERE id = 1")).isNotEqualTo(key("SELECT b FROM t WHERE id = 1"));
        assertThat(key("SELECT a FROM t WHERE id = 1")).isNotEqualTo(key("SELECT a FROM t WHERE id = NULL"));
        assertThat(digest("SELECT a FROM t WHERE id = -1").keyString()).isEqualTo("SELECT a FROM t WHERE id = - ?");
    }

    @Test
    void identifiersKeepTheirSpelling() {
        assertThat(key("SELECT `Col` FROM Db.`T` WHERE t.status = 1")).isEqualTo("SELECT `Col` FROM Db . `T` WHERE t . status = ?");
        assertThat(key("SELECT status FROM t")).isEqualTo("SELECT STATUS FROM t");
    }

    @Test
    void orderByAndGroupByOrdinalsAreNotParameterized() {
        assertThat(key("SELECT a, b FROM t GROUP BY 1, 2 ORDER BY 2 DESC, a LIMIT 10"))
                .isEqualTo("SELECT a , b FROM t GROUP BY 1 , 2 ORDER BY 2 DESC , a LIMIT ?");
        assertThat(key("SELECT a FROM t ORDER BY 1")).isNotEqualTo(key("SELECT a FROM t ORDER BY 2"));
        assertThat(key("SELECT a FROM t ORDER BY a LIMIT 5, 10")).isEqualTo("SELECT a FROM t ORDER BY a LIMIT ? , ?");
        assertThat(key("SELECT a FROM t ORDER BY a + 1, f(a, 2)")).isEqualTo("SELECT a FROM t ORDER BY a + ? , f ( a , ? )");
        assertThat(key("SELECT a FROM t GROUP BY 1 WITH ROLLUP HAVING a > 3"))
                .isEqualTo("SELECT a FROM t GROUP BY 1 WITH ROLLUP HAVING a > ?");
        assertThat(key("SELECT (SELECT x FROM u ORDER BY 1), 2 FROM t ORDER BY 1"))
                .isEqualTo("SELECT ( SELECT x FROM u ORDER BY 1 ) , ? FROM t ORDER BY 1");
    }

    @Test
    void versionCommentsAndHints() {
        assertThat(key("/*!40101 SET NAMES utf8 */")).isEqualTo(key("SET NAMES utf8"));
        assertThat(key("SELECT /*+ BKA(t) */ a FROM t WHERE x = 1")).isEqualTo("SELECT /*+ BKA(t) */ a FROM t WHERE x = ?");
    }

    @Test
    void adjacentStringsAreOneSlot() {
        StatementDigest d = digest("SELECT 'a' 'b' , 'c'");
        assertThat(d.keyString()).isEqualTo("SELECT ?? , ?");
        assertThat(d.slotCount()).isEqualTo(2);
        assertThat(d.slotToken(0)).isEqualTo(1);
        assertThat(d.slotTokenCount(0)).isEqualTo(2);
        assertThat(d.slotToken(1)).isEqualTo(4);
        assertThat(key("SELECT 'ab'")).isNotEqualTo(key("SELECT 'a' 'b'"));
    }

    @Test
    void aliasStringsAreKept() {
        assertThat(key("SELECT 1 AS 'one', c 'see', 'v' FROM t")).isEqualTo("SELECT ? AS 'one' , c 'see' , ? FROM t");
    }

    @Test
    void charsetNamesWrittenAsStringsAreKept() {
        assertThat(key("SET NAMES 'utf8mb4'")).isEqualTo("SET NAMES 'utf8mb4'");
        assertThat(key("SET CHARACTER SET 'latin1'")).isEqualTo("SET CHARACTER SET 'latin1'");
        assertThat(key("SELECT a COLLATE 'utf8mb4_bin' FROM t")).isEqualTo("SELECT a COLLATE 'utf8mb4_bin' FROM t");
    }

    @Test
    void slotsListLiteralsAndPlaceholdersInOrder() {
        StatementDigest d = digest("UPDATE t SET a = ?, b = 'x' WHERE id = ? AND k = 3");
        assertThat(d.keyString()).isEqualTo("UPDATE t SET a = ? , b = ? WHERE id = ? AND k = ?");
        assertThat(d.slotCount()).isEqualTo(4);
        assertThat(d.slotKind(0)).isEqualTo(SlotKind.PLACEHOLDER);
        assertThat(d.parameterIndex(0)).isEqualTo(0);
        assertThat(d.slotKind(1)).isEqualTo(SlotKind.LITERAL);
        assertThat(d.parameterIndex(1)).isEqualTo(-1);
        assertThat(d.parameterIndex(2)).isEqualTo(1);
        assertThat(d.slotToken(3)).isEqualTo(17);
        assertThat(d.slotOfToken(17)).isEqualTo(3);
        assertThat(d.slotOfToken(0)).isEqualTo(-1);
        assertThat(d.placeholderCount()).isEqualTo(2);
    }

    @Test
    void lookupKeyFindsAStoredKeyWithoutCopying() {
        Map<DigestKey, String> cache = new HashMap<>();
        cache.put(digest("SELECT c FROM sbtest1 WHERE id = 1").toKey(), "plan");
        assertThat(cache.get(digest("SELECT c FROM sbtest1 WHERE id = 99").lookupKey())).isEqualTo("plan");
        assertThat(cache.get(digest("SELECT c FROM sbtest2 WHERE id = 99").lookupKey())).isNull();
    }

    @Test
    void errorTokensAreMarked() {
        assertThat(key("SELECT 'abc")).isEqualTo("SELECT <error>");
    }

    @Test
    void keyOfALongStatementFits() {
        StringBuilder sb = new StringBuilder("INSERT INTO t VALUES ");
        for (int i = 0; i < 2000; i++) {
            sb.append(i == 0 ? "" : ",").append("(").append(i).append(",'x')");
        }
        StatementDigest d = digest(sb.toString());
        assertThat(d.slotCount()).isEqualTo(4000);
        assertThat(d.keyString()).startsWith("INSERT INTO t VALUES ( ? , ? ) , ( ? , ? )");
    }
}
