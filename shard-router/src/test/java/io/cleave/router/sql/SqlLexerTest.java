package io.cleave.router.sql;

import io.cleave.router.sql.lex.Keyword;
import io.cleave.router.sql.lex.LexError;
import io.cleave.router.sql.lex.SqlLexer;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;
import io.cleave.router.sql.lex.VersionComments;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static io.cleave.router.sql.lex.TokenType.*;
import static org.assertj.core.api.Assertions.assertThat;

class SqlLexerTest {

    private static TokenBuffer lex(String sql) {
        return lex(sql, SqlMode.DEFAULT);
    }

    private static TokenBuffer lex(String sql, SqlMode mode) {
        TokenBuffer tokens = new TokenBuffer();
        new SqlLexer(mode).lex(sql.getBytes(StandardCharsets.UTF_8), tokens);
        return tokens;
    }

    /** "TYPE text" per token. */
    private static List<String> tokens(String sql) {
        return tokens(lex(sql));
    }

    private static List<String> tokens(TokenBuffer t) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < t.size(); i++) {
            out.add(t.type(i) + " " + t.text(i));
        }
        return out;
    }

    private static List<TokenType> types(String sql) {
        TokenBuffer t = lex(sql);
        List<TokenType> out = new ArrayList<>();
        for (int i = 0; i < t.size(); i++) {
            out.add(t.type(i));
        }
        return out;
    }

    @Test
    void keywordsAreCaseInsensitiveAndIdentifiersAreNot() {
        TokenBuffer t = lex("select Id FrOm sbtest1 WHERE status");
        assertThat(tokens(t)).containsExactly("KEYWORD select", "IDENTIFIER Id", "KEYWORD FrOm",
                "IDENTIFIER sbtest1", "KEYWORD WHERE", "KEYWORD status");
        assertThat(t.keyword(0)).isEqualTo(Keyword.SELECT);
        assertThat(t.keyword(2)).isEqualTo(Keyword.FROM);
        assertThat(t.keyword(5)).isEqualTo(Keyword.STATUS);
        assertThat(t.keyword(1)).isNull();
    }

    @Test
    void wordsAfterAQualifierDotAreIdentifiers() {
        assertThat(tokens("t.order, db.t.select, t.1col")).containsExactly("IDENTIFIER t", "DOT .",
                "IDENTIFIER order", "COMMA ,", "IDENTIFIER db", "DOT .", "IDENTIFIER t", "DOT .", "IDENTIFIER select",
                "COMMA ,", "IDENTIFIER t", "DOT .", "IDENTIFIER 1col");
    }

    @Test
    void backquotedIdentifiersWithDoubledQuotes() {
        assertThat(tokens("`a``b` `select`")).containsExactly("QUOTED_IDENTIFIER `a``b`", "QUOTED_IDENTIFIER `select`");
    }

    @Test
    void stringsWithEscapesAndDoubling() {
        TokenBuffer t = lex("'it''s' 'a\\'b' \"x\"\"y\" 'plain'");
        assertThat(tokens(t)).containsExactly("STRING 'it''s'", "STRING 'a\\'b'", "STRING \"x\"\"y\"", "STRING 'plain'");
        assertThat(t.flags(0) & TokenBuffer.FLAG_ESCAPES).isNotZero();
        assertThat(t.flags(3) & TokenBuffer.FLAG_ESCAPES).isZero();
    }

    @Test
    void ansiQuotesMakeDoubleQuotesIdentifiers() {
        TokenBuffer t = lex("SELECT \"col\" FROM \"t\"", new SqlMode(true, false));
        assertThat(t.type(1)).isEqualTo(QUOTED_IDENTIFIER);
        assertThat(t.type(3)).isEqualTo(QUOTED_IDENTIFIER);
    }

    @Test
    void noBackslashEscapesEndsStringAtTheQuote() {
        assertThat(tokens(lex("'a\\' , 'b'", new SqlMode(false, true))))
                .containsExactly("STRING 'a\\'", "COMMA ,", "STRING 'b'");
        // With escapes the first string swallows "\' , " and b'... never closes.
        assertThat(tokens(lex("'a\\' , 'b'"))).containsExactly("STRING 'a\\' , '", "ERROR b'");
    }

    @Test
    void introducersAndNationalStrings() {
        TokenBuffer t = lex("_utf8mb4'x' _binary 'y' N'z' _latin1 X'41' _binary 0x41 _foo 'alias'");
        assertThat(tokens(t)).containsExactly("STRING _utf8mb4'x'", "STRING _binary 'y'", "STRING N'z'",
                "HEX _latin1 X'41'", "HEX _binary 0x41", "IDENTIFIER _foo", "STRING 'alias'");
        assertThat(t.flags(0) & TokenBuffer.FLAG_INTRODUCER).isNotZero();
        assertThat(t.bodyOffset(1)).isEqualTo("_binary ".length());
        assertThat(t.flags(2) & TokenBuffer.FLAG_NATIONAL).isNotZero();
    }

    @Test
    void numbers() {
        assertThat(tokens("1 12.5 .5 1e10 1.5E-3 2e+2 123abc 1e")).containsExactly("INTEGER 1", "DECIMAL 12.5",
                "DECIMAL .5", "FLOAT 1e10", "FLOAT 1.5E-3", "FLOAT 2e+2", "IDENTIFIER 123abc", "IDENTIFIER 1e");
    }

    @Test
    void hexAndBitLiterals() {
        assertThat(tokens("X'0A' x'ff' 0x0A 0b101 b'01' B'1' 0xZZ 0X1")).containsExactly("HEX X'0A'", "HEX x'ff'",
                "HEX 0x0A", "BIT 0b101", "BIT b'01'", "BIT B'1'", "IDENTIFIER 0xZZ", "IDENTIFIER 0X1");
    }

    @Test
    void placeholdersAndVariables() {
        assertThat(tokens("? @x @`a b` @'q' @a.b @@x @@session.auto_increment_increment @@GLOBAL.x @")).containsExactly(
                "PLACEHOLDER ?", "USER_VARIABLE @x", "USER_VARIABLE @`a b`", "USER_VARIABLE @'q'", "USER_VARIABLE @a.b",
                "SYSTEM_VARIABLE @@x", "SYSTEM_VARIABLE @@session.auto_increment_increment",
                "SYSTEM_VARIABLE @@GLOBAL.x", "AT @");
    }

    @Test
    void multiCharacterOperators() {
        assertThat(types("<=> <= >= <> != := || && << >> -> ->> < > = ! ~ ^ & | + - * / % ( ) , . ; :"))
                .containsExactly(NULL_SAFE_EQ, LE, GE, NE, NE, ASSIGN, PIPE_PIPE, AMP_AMP, SHIFT_LEFT, SHIFT_RIGHT,
                        ARROW, DOUBLE_ARROW, LT, GT, EQ, BANG, TILDE, CARET, AMP, PIPE, PLUS, MINUS, STAR, SLASH,
                        PERCENT, LPAREN, RPAREN, COMMA, DOT, SEMICOLON, COLON);
    }

    @Test
    void commentsProduceNoTokens() {
        assertThat(tokens("SELECT 1 -- comment\n, 2 # another\n /* block */ , 3")).containsExactly(
                "KEYWORD SELECT", "INTEGER 1", "COMMA ,", "INTEGER 2", "COMMA ,", "INTEGER 3");
    }

    @Test
    void doubleDashNeedsWhitespaceToStartAComment() {
        assertThat(tokens("5--3")).containsExactly("INTEGER 5", "MINUS -", "MINUS -", "INTEGER 3");
        assertThat(tokens("5 --\t3")).containsExactly("INTEGER 5");
        assertThat(tokens("5 --")).containsExactly("INTEGER 5");
    }

    @Test
    void theStatementsOwnTrailingSemicolonsAndWhatFollowsThemAreNotPartOfIt() {
        String sql = "SET FOREIGN_KEY_CHECKS = 0 /* kept */ ; ; -- a comment\n # another\n";
        TokenBuffer t = lex(sql);
        assertThat(tokens(t)).containsExactly("KEYWORD SET", "IDENTIFIER FOREIGN_KEY_CHECKS", "EQ =", "INTEGER 0");
        assertThat(new String(t.source(), t.offset(), t.length(), java.nio.charset.StandardCharsets.UTF_8))
                .isEqualTo("SET FOREIGN_KEY_CHECKS = 0 /* kept */ ");
        // A version comment closes after its own semicolon; and a statement of semicolons stays what it is.
        assertThat(lex("/*!40101 SET NAMES utf8 */;").length()).isEqualTo("/*!40101 SET NAMES utf8 */".length());
        assertThat(lex("/*!40101 SET NAMES utf8; */").length()).isEqualTo("/*!40101 SET NAMES utf8; */".length());
        assertThat(tokens(";;")).containsExactly("SEMICOLON ;", "SEMICOLON ;");
        assertThat(tokens("SELECT 1; SELECT 2;")).containsExactly("KEYWORD SELECT", "INTEGER 1", "SEMICOLON ;",
                "KEYWORD SELECT", "INTEGER 2");
    }

    @Test
    void versionCommentContentIsLexed() {
        assertThat(tokens("/*!40101 SET NAMES utf8 */; /*!SELECT 1*/ /*M!100100 , 2 */"))
                .containsExactly("KEYWORD SET", "KEYWORD NAMES", "IDENTIFIER utf8", "SEMICOLON ;", "KEYWORD SELECT",
                        "INTEGER 1", "COMMA ,", "INTEGER 2");
    }

    @Test
    void versionCommentsRunAsTheShardsServerRunsThem() {
        String sql = "SELECT id FROM t WHERE /*!99999 id = 2 AND */ /*!50700 id = 3 AND */ /*M!110500 id = 4 AND */"
                + " id = 1";
        // MariaDB 11.4 skips MySQL 5.7-9.x versions and versions above its own.
        assertThat(words(sql, new VersionComments(110400, true))).isEqualTo("SELECT id FROM t WHERE id = 1");
        // MariaDB 11.5 runs its /*M!110500 part.
        assertThat(words(sql, VersionComments.of("11.5.2-MariaDB-log"))).isEqualTo("SELECT id FROM t WHERE id = 4 AND id = 1");
        // MySQL 8.0 runs /*!50700 and takes /*M! for a comment.
        assertThat(words(sql, VersionComments.of("8.0.36"))).isEqualTo("SELECT id FROM t WHERE id = 3 AND id = 1");
        assertThat(VersionComments.of("5.5.5-10.6.12-MariaDB")).isEqualTo(new VersionComments(100612, true));
    }

    private static String words(String sql, VersionComments versions) {
        TokenBuffer tokens = new TokenBuffer();
        new SqlLexer(SqlMode.DEFAULT, versions).lex(sql.getBytes(StandardCharsets.UTF_8), tokens);
        List<String> out = new ArrayList<>();
        for (int i = 0; i < tokens.size(); i++) {
            out.add(tokens.text(i));
        }
        return String.join(" ", out);
    }

    @Test
    void aCharsetThatIsNotAsciiSafeLexesOnlyAsciiStatements() {
        SqlMode gbk = SqlMode.DEFAULT.withClientCharset("gbk");
        assertThat(gbk.asciiOnly()).isTrue();
        assertThat(SqlMode.DEFAULT.withClientCharset("utf8mb4").asciiOnly()).isFalse();
        assertThat(SqlMode.DEFAULT.withClientCharset("latin1").asciiOnly()).isFalse();
        assertThat(SqlMode.DEFAULT.withClientCharset("no-such-charset").asciiOnly()).isTrue();
        assertThat(tokens(lex("SELECT 'x' FROM t", gbk))).containsExactly("KEYWORD SELECT", "STRING 'x'", "KEYWORD FROM",
                "IDENTIFIER t");
        // In gbk, 0x955C is one character whose second byte is a backslash: byte by byte the string would not end.
        TokenBuffer t = new TokenBuffer();
        byte[] sql = {'S', 'E', 'L', 'E', 'C', 'T', ' ', '\'', (byte) 0x95, '\\', '\'', ' ', '1'};
        new SqlLexer(gbk).lex(sql, t);
        assertThat(t.size()).isEqualTo(1);
        assertThat(t.error(0)).isEqualTo(LexError.UNSAFE_CHARSET);
    }

    @Test
    void hintsAreOneTokenOnlyAfterStatementKeywords() {
        assertThat(tokens("SELECT /*+ MAX_EXECUTION_TIME(1000) */ a FROM t /*+ not a hint */"))
                .containsExactly("KEYWORD SELECT", "HINT /*+ MAX_EXECUTION_TIME(1000) */", "IDENTIFIER a", "KEYWORD FROM",
                        "IDENTIFIER t");
    }

    @Test
    void unterminatedConstructsEndWithAnErrorToken() {
        TokenBuffer t = lex("SELECT 'abc");
        assertThat(t.type(1)).isEqualTo(ERROR);
        assertThat(t.error(1)).isEqualTo(LexError.UNTERMINATED_STRING);
        assertThat(t.start(1)).isEqualTo(7);
        assertThat(t.hasError()).isTrue();
        assertThat(lex("SELECT `abc").error(1)).isEqualTo(LexError.UNTERMINATED_IDENTIFIER);
        assertThat(lex("SELECT /* abc").error(1)).isEqualTo(LexError.UNTERMINATED_COMMENT);
        // Fewer than five digits are no version: the server reads "1" as SQL.
        assertThat(lex("SELECT /*!1 abc").error(3)).isEqualTo(LexError.UNTERMINATED_COMMENT);
    }

    @Test
    void multibyteBytesBelongToIdentifiersAndStrings() {
        assertThat(tokens("SELECT naïve, '日本' FROM `表`")).containsExactly("KEYWORD SELECT", "IDENTIFIER naïve",
                "COMMA ,", "STRING '日本'", "KEYWORD FROM", "QUOTED_IDENTIFIER `表`");
    }

    @Test
    void lexesASubRangeAndReusesTheBuffer() {
        byte[] bytes = "xxSELECT 1yy".getBytes(StandardCharsets.US_ASCII);
        TokenBuffer t = new TokenBuffer();
        SqlLexer lexer = new SqlLexer();
        lexer.lex(bytes, 2, 8, t);
        assertThat(tokens(t)).containsExactly("KEYWORD SELECT", "INTEGER 1");
        assertThat(t.start(1)).isEqualTo(9);
        lexer.lex("COMMIT".getBytes(StandardCharsets.US_ASCII), t);
        assertThat(tokens(t)).containsExactly("KEYWORD COMMIT");
        assertThat(t.type(5)).isEqualTo(EOF);
    }

    @Test
    void sqlModeFlagsFromTheSessionValue() {
        assertThat(SqlMode.fromSqlMode("STRICT_TRANS_TABLES,ANSI_QUOTES")).isEqualTo(new SqlMode(true, false));
        assertThat(SqlMode.fromSqlMode("ansi,no_backslash_escapes")).isEqualTo(new SqlMode(true, true));
        assertThat(SqlMode.fromSqlMode("")).isEqualTo(SqlMode.DEFAULT);
    }

    @Test
    void introducersBeforeBitLiteralsAndVersionCommentsWithoutDigits() {
        assertThat(tokens("_binary b'01' /*M! , 1 */")).containsExactly("BIT _binary b'01'", "COMMA ,", "INTEGER 1");
        assertThat(tokens("/*!*/SELECT")).containsExactly("KEYWORD SELECT");
    }

    @Test
    void userVariablesAfterStringsAreHostParts() {
        assertThat(tokens("'u'@'%' u@localhost")).containsExactly("STRING 'u'", "USER_VARIABLE @'%'",
                "IDENTIFIER u", "USER_VARIABLE @localhost");
    }

    @Test
    void growsPastTheInitialCapacity() {
        StringBuilder sb = new StringBuilder("SELECT 0");
        for (int i = 1; i < 1000; i++) {
            sb.append(',').append(i);
        }
        assertThat(lex(sb.toString()).size()).isEqualTo(2000);
    }
}
