package io.cleave.router.sql;

import io.cleave.router.sql.ast.AstPrinter;
import io.cleave.router.sql.ast.Ddl;
import io.cleave.router.sql.ast.Delete;
import io.cleave.router.sql.ast.Expr;
import io.cleave.router.sql.ast.Exprs;
import io.cleave.router.sql.ast.Insert;
import io.cleave.router.sql.ast.OrderItem;
import io.cleave.router.sql.ast.Query;
import io.cleave.router.sql.ast.Select;
import io.cleave.router.sql.ast.SelectItem;
import io.cleave.router.sql.ast.SetStatement;
import io.cleave.router.sql.ast.StatementKind;
import io.cleave.router.sql.ast.TableReferences;
import io.cleave.router.sql.ast.TableRef;
import io.cleave.router.sql.ast.TransactionStatement;
import io.cleave.router.sql.ast.Update;
import io.cleave.router.sql.ast.UtilityStatement;
import io.cleave.router.sql.ast.VariableScope;
import io.cleave.router.sql.digest.SlotKind;
import io.cleave.router.sql.digest.SlotValues;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.sql.parse.SqlParser;
import io.cleave.router.sql.parse.SqlSyntaxException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** What the planner reads from the AST: kinds, spans, slots, aggregates, tables, conjuncts. */
class SqlParserTest {

    @Test
    void selectItemsCarryAggregateInfoAndSpans() {
        Parsed p = Parsed.of("SELECT a, COUNT(*) AS n, AVG(b) avg_b, t.* FROM t GROUP BY a ORDER BY n DESC LIMIT 5, 10");
        Select s = p.as(Select.class);
        assertThat(s.kind()).isEqualTo(StatementKind.SELECT);
        List<SelectItem> items = s.items();
        assertThat(items).hasSize(4);
        SelectItem.Column count = (SelectItem.Column) items.get(1);
        assertThat(count.alias()).isEqualTo("n");
        assertThat(p.text(count)).isEqualTo("COUNT(*) AS n");
        Expr.FunctionCall countCall = (Expr.FunctionCall) count.expr();
        assertThat(countCall.isAggregate()).isTrue();
        assertThat(countCall.star()).isTrue();
        Expr.FunctionCall avg = (Expr.FunctionCall) ((SelectItem.Column) items.get(2)).expr();
        assertThat(avg.upperName()).isEqualTo("AVG");
        assertThat(avg.args()).containsExactly(new Expr.ColumnRef(avg.args().get(0).span(), null, null, "b"));
        assertThat(Exprs.containsAggregate(((SelectItem.Column) items.get(0)).expr())).isFalse();
        assertThat(items.get(3)).isInstanceOf(SelectItem.Star.class);
        assertThat(((SelectItem.Star) items.get(3)).table()).isEqualTo("t");
        assertThat(p.text(s.groupBy().get(0))).isEqualTo("a");
        OrderItem order = s.orderBy().get(0);
        assertThat(p.text(order)).isEqualTo("n DESC");
        assertThat(order.descending()).isTrue();
    }

    @Test
    void limitValuesAreSlotsWithTokenIndexes() {
        Parsed p = Parsed.of("SELECT a FROM t ORDER BY a LIMIT 5, 10");
        Select s = p.as(Select.class);
        assertThat(p.text(s.limit())).isEqualTo("LIMIT 5, 10");
        Expr.Slot count = (Expr.Slot) s.limit().count();
        Expr.Slot offset = (Expr.Slot) s.limit().offset();
        SlotValues values = p.values();
        assertThat(values.asLong(count.slot())).isEqualTo(10);
        assertThat(values.asLong(offset.slot())).isEqualTo(5);
        assertThat(p.digest().slotToken(count.slot())).isEqualTo(count.span().first());

        Parsed q = Parsed.of("select a from t order by a limit 1000 , 20 -- other values, same digest");
        assertThat(q.digest().lookupKey()).isEqualTo(p.digest().lookupKey());
        Select qs = q.as(Select.class);
        assertThat(qs.limit().span()).isEqualTo(s.limit().span());
        assertThat(qs.limit().count()).isEqualTo(s.limit().count());
        assertThat(q.values().asLong(count.slot())).isEqualTo(20);
    }

    @Test
    void orderByOrdinalsAreLiteralsNotSlots() {
        Select s = Parsed.of("SELECT a, b FROM t GROUP BY 1 ORDER BY 2 DESC, a").as(Select.class);
        assertThat(s.groupBy().get(0).ordinal()).isEqualTo(1);
        OrderItem first = s.orderBy().get(0);
        assertThat(first.isOrdinal()).isTrue();
        assertThat(first.ordinal()).isEqualTo(2);
        assertThat(first.expr()).isInstanceOf(Expr.Literal.class);
        assertThat(s.orderBy().get(1).isOrdinal()).isFalse();
    }

    @Test
    void insertRowsKeepSpansForPerShardSplitting() {
        String sql = "INSERT INTO t (a, b) VALUES (1, 'x'), (2, 'y'),(3,'z') ON DUPLICATE KEY UPDATE b = VALUES(b)";
        Parsed p = Parsed.of(sql);
        Insert insert = p.as(Insert.class);
        assertThat(insert.kind()).isEqualTo(StatementKind.INSERT);
        assertThat(insert.table().name()).isEqualTo("t");
        assertThat(insert.columns()).extracting(n -> n.value()).containsExactly("a", "b");
        List<Insert.Row> rows = ((Insert.Values) insert.source()).rows();
        assertThat(rows).extracting(p::text).containsExactly("(1, 'x')", "(2, 'y')", "(3,'z')");
        assertThat(rows.get(1).values().get(0)).isEqualTo(new Expr.Slot(rows.get(1).values().get(0).span(), 2));

        // A plan keeps rows 0 and 2 for one shard: splice the original bytes by the row spans.
        byte[] src = sql.getBytes(StandardCharsets.UTF_8);
        int firstRow = rows.get(0).span().byteStart(p.tokens());
        int afterRows = rows.get(2).span().byteEnd(p.tokens());
        String spliced = new String(src, 0, firstRow, StandardCharsets.UTF_8)
                + p.text(rows.get(0)) + "," + p.text(rows.get(2))
                + new String(src, afterRows, src.length - afterRows, StandardCharsets.UTF_8);
        assertThat(spliced).isEqualTo("INSERT INTO t (a, b) VALUES (1, 'x'),(3,'z') ON DUPLICATE KEY UPDATE b = VALUES(b)");

        Expr.FunctionCall values = (Expr.FunctionCall) insert.onDuplicateKeyUpdate().get(0).value();
        assertThat(values.upperName()).isEqualTo("VALUES");
    }

    @Test
    void whereSplitsIntoConjuncts() {
        Select s = Parsed.of("SELECT COUNT(DISTINCT s_i_id) FROM order_line, stock WHERE ol_w_id = ? AND ol_d_id = ?"
                + " AND ol_o_id < ? AND ol_o_id >= ? AND s_w_id = ? AND s_i_id = ol_i_id AND s_quantity < ?").as(Select.class);
        List<Expr> conjuncts = Exprs.conjuncts(s.where());
        assertThat(conjuncts).hasSize(7);
        assertThat(AstPrinter.print(conjuncts.get(0))).isEqualTo("(= ol_w_id ?0)");
        assertThat(AstPrinter.print(conjuncts.get(5))).isEqualTo("(= s_i_id ol_i_id)");
        assertThat(s.from()).hasSize(2);
        Expr.FunctionCall count = (Expr.FunctionCall) ((SelectItem.Column) s.items().get(0)).expr();
        assertThat(count.distinct()).isTrue();
        assertThat(count.isAggregate()).isTrue();
        assertThat(Exprs.conjuncts(null)).isEmpty();
        assertThat(Exprs.columns(conjuncts.get(5))).extracting(Expr.ColumnRef::column).containsExactly("s_i_id", "ol_i_id");
    }

    @Test
    void tableReferencesCoverSubqueriesWithTheirScope() {
        Parsed p = Parsed.of("WITH c AS (SELECT id FROM base) SELECT a FROM t AS x JOIN c ON c.id = x.id"
                + " WHERE x.id IN (SELECT id FROM u) AND EXISTS (SELECT 1 FROM db.v) AND x.k = (SELECT MAX(k) FROM (SELECT k FROM w) d)");
        List<TableReferences.TableUse> uses = TableReferences.of(p.statement());
        assertThat(uses).extracting(u -> u.name().qualified() + "@" + u.depth() + (u.cte() ? "/cte" : ""))
                .containsExactly("base@1", "t@0", "c@0/cte", "u@1", "db.v@1", "w@2");
        assertThat(uses.get(1).alias()).isEqualTo("x");
        assertThat(uses.get(1).scope()).isSameAs(p.statement());
        assertThat(uses.get(3).scope()).isInstanceOf(Select.class).isNotSameAs(p.statement());
    }

    @Test
    void tableReferencesOfDml() {
        assertThat(TableReferences.of(SqlParser.parse("DELETE t1 FROM t1 JOIN t2 ON t1.id = t2.id WHERE t2.x IN (SELECT x FROM t3)")))
                .extracting(u -> u.name().name()).containsExactly("t1", "t2", "t3");
        assertThat(TableReferences.of(SqlParser.parse("INSERT INTO a SELECT * FROM b")))
                .extracting(u -> u.name().name()).containsExactly("a", "b");
    }

    @Test
    void literalSlotsDecodeThroughTheDigest() {
        Parsed p = Parsed.of("SELECT c FROM sbtest1 WHERE id = 42 AND pad = _utf8mb4'x\\'y' AND k = ?");
        List<Expr> conjuncts = Exprs.conjuncts(p.as(Select.class).where());
        SlotValues values = p.values();
        Expr.Slot id = (Expr.Slot) ((Expr.Binary) conjuncts.get(0)).right();
        assertThat(values.asLong(id.slot())).isEqualTo(42);
        Expr.Slot pad = (Expr.Slot) ((Expr.Binary) conjuncts.get(1)).right();
        assertThat(values.asString(pad.slot())).isEqualTo("x'y");
        Expr.Slot k = (Expr.Slot) ((Expr.Binary) conjuncts.get(2)).right();
        assertThat(values.kind(k.slot())).isEqualTo(SlotKind.PLACEHOLDER);
        assertThat(values.parameterIndex(k.slot())).isZero();
    }

    @Test
    void windowFunctionsAreNotGroupAggregates() {
        Select s = Parsed.of("SELECT SUM(x) OVER (PARTITION BY a), SUM(y) FROM t").as(Select.class);
        Expr.FunctionCall window = (Expr.FunctionCall) ((SelectItem.Column) s.items().get(0)).expr();
        assertThat(window.isWindow()).isTrue();
        assertThat(window.isAggregate()).isFalse();
        assertThat(((Expr.FunctionCall) ((SelectItem.Column) s.items().get(1)).expr()).isAggregate()).isTrue();
    }

    @Test
    void expressionSpansCoverTheirText() {
        Parsed p = Parsed.of("SELECT (a + 1) * b AS x FROM t WHERE c BETWEEN 1 AND 5");
        Select s = p.as(Select.class);
        Expr mul = ((SelectItem.Column) s.items().get(0)).expr();
        assertThat(p.text(mul)).isEqualTo("(a + 1) * b");
        assertThat(p.text(((Expr.Binary) mul).left())).isEqualTo("a + 1");
        assertThat(p.text(s.where())).isEqualTo("c BETWEEN 1 AND 5");
    }

    @Test
    void setStatementItems() {
        SetStatement set = Parsed.of("SET @a = 1, SESSION sql_mode = 'ANSI', @@global.max_connections = 10, time_zone = SYSTEM,"
                + " NAMES utf8mb4 COLLATE utf8mb4_bin").as(SetStatement.class);
        assertThat(set.items()).hasSize(5);
        SetStatement.Variable user = (SetStatement.Variable) set.items().get(0);
        assertThat(user.user()).isTrue();
        assertThat(user.name()).isEqualTo("a");
        SetStatement.Variable mode = (SetStatement.Variable) set.items().get(1);
        assertThat(mode.scope()).isEqualTo(VariableScope.SESSION);
        assertThat(mode.name()).isEqualTo("sql_mode");
        SetStatement.Variable max = (SetStatement.Variable) set.items().get(2);
        assertThat(max.scope()).isEqualTo(VariableScope.GLOBAL);
        SetStatement.Variable tz = (SetStatement.Variable) set.items().get(3);
        assertThat(tz.scope()).isEqualTo(VariableScope.SESSION);
        assertThat(tz.value()).isInstanceOf(Expr.Literal.class);
        assertThat(((Expr.Literal) tz.value()).kind()).isEqualTo(Expr.LiteralKind.WORD);
        SetStatement.Names names = (SetStatement.Names) set.items().get(4);
        assertThat(names.charset()).isEqualTo("utf8mb4");
        assertThat(names.collation()).isEqualTo("utf8mb4_bin");

        SetStatement autocommit = Parsed.of("SET autocommit=1").as(SetStatement.class);
        SetStatement.Variable v = (SetStatement.Variable) autocommit.items().get(0);
        assertThat(v.scope()).isEqualTo(VariableScope.DEFAULT);
        assertThat(v.scope().effective()).isEqualTo(VariableScope.SESSION);
    }

    @Test
    void transactionStatements() {
        assertThat(SqlParser.parse("START TRANSACTION READ ONLY").kind()).isEqualTo(StatementKind.BEGIN);
        TransactionStatement.SetTransaction st = (TransactionStatement.SetTransaction)
                SqlParser.parse("SET GLOBAL TRANSACTION ISOLATION LEVEL REPEATABLE READ");
        assertThat(st.scope()).isEqualTo(VariableScope.GLOBAL);
        assertThat(st.isolation()).isEqualTo("REPEATABLE READ");
        TransactionStatement.Rollback rb = (TransactionStatement.Rollback) SqlParser.parse("ROLLBACK TO SAVEPOINT s1");
        assertThat(rb.savepoint().value()).isEqualTo("s1");
        Parsed p = Parsed.of("XA PREPARE 'cleave-1', 'b'");
        TransactionStatement.Xa xa = p.as(TransactionStatement.Xa.class);
        assertThat(xa.action()).isEqualTo("PREPARE");
        assertThat(p.text(xa.xid())).isEqualTo("'cleave-1', 'b'");
        assertThat(p.values().asString(((Expr.Slot) xa.xidParts().get(0)).slot())).isEqualTo("cleave-1");

        Parsed kill = Parsed.of("KILL QUERY 42");
        UtilityStatement.Kill k = kill.as(UtilityStatement.Kill.class);
        assertThat(k.queryOnly()).isTrue();
        assertThat(kill.values().asLong(((Expr.Slot) k.id()).slot())).isEqualTo(42);
    }

    @Test
    void createTableColumnsAndKeys() {
        Ddl.CreateTable ct = Parsed.of("CREATE TABLE IF NOT EXISTS shop.orders (id BIGINT NOT NULL AUTO_INCREMENT,"
                + " tenant_id INT NOT NULL, sku VARCHAR(32) UNIQUE, PRIMARY KEY (tenant_id, id), KEY k_sku (sku))"
                + " ENGINE=InnoDB DEFAULT CHARSET=utf8mb4").as(Ddl.CreateTable.class);
        assertThat(ct.kind()).isEqualTo(StatementKind.CREATE_TABLE);
        assertThat(ct.kind().isDdl()).isTrue();
        assertThat(ct.table().qualified()).isEqualTo("shop.orders");
        assertThat(ct.ifNotExists()).isTrue();
        assertThat(ct.columns()).extracting(c -> c.name().value()).containsExactly("id", "tenant_id", "sku");
        assertThat(ct.columns().get(0).autoIncrement()).isTrue();
        assertThat(ct.columns().get(2).unique()).isTrue();
        assertThat(ct.primaryKey()).containsExactly("tenant_id", "id");
        assertThat(ct.keys().get(1).type()).isEqualTo(Ddl.KeyType.INDEX);
        assertThat(ct.optionsSpan().isEmpty()).isFalse();

        Ddl.CreateTable inline = (Ddl.CreateTable) SqlParser.parse("CREATE TEMPORARY TABLE t (id INT AUTO_INCREMENT PRIMARY KEY)");
        assertThat(inline.temporary()).isTrue();
        assertThat(inline.primaryKey()).containsExactly("id");
    }

    @Test
    void multiTableUpdatesAndDeletesAreMarked() {
        assertThat(((Update) SqlParser.parse("UPDATE t SET a = 1")).isMultiTable()).isFalse();
        assertThat(((Update) SqlParser.parse("UPDATE t JOIN u ON t.id = u.id SET t.a = 1")).isMultiTable()).isTrue();
        assertThat(((Delete) SqlParser.parse("DELETE FROM t WHERE a = 1")).isMultiTable()).isFalse();
        assertThat(((Delete) SqlParser.parse("DELETE t FROM t JOIN u ON t.id = u.id")).isMultiTable()).isTrue();
    }

    @Test
    void explainWrapsTheStatement() {
        UtilityStatement.Explain e = (UtilityStatement.Explain) SqlParser.parse("EXPLAIN DELETE FROM t WHERE id = 1");
        assertThat(e.kind()).isEqualTo(StatementKind.EXPLAIN);
        assertThat(e.statement().kind()).isEqualTo(StatementKind.DELETE);
    }

    @Test
    void statementKinds() {
        assertThat(SqlParser.parse("REPLACE INTO t VALUES (1)").kind()).isEqualTo(StatementKind.REPLACE);
        assertThat(SqlParser.parse("SHOW TABLES").kind()).isEqualTo(StatementKind.SHOW);
        assertThat(SqlParser.parse("USE db").kind()).isEqualTo(StatementKind.USE);
        assertThat(SqlParser.parse("TRUNCATE t").kind()).isEqualTo(StatementKind.TRUNCATE_TABLE);
        assertThat(SqlParser.parse("FLUSH LOGS").kind()).isEqualTo(StatementKind.FLUSH);
        assertThat(SqlParser.parse("SET PASSWORD FOR u = 'x'").kind()).isEqualTo(StatementKind.SET_PASSWORD);
        assertThat(SqlParser.parse("(SELECT 1) UNION (SELECT 2)")).isInstanceOf(Query.SetOperation.class);
        assertThat(SqlParser.parse("PURGE BINARY LOGS TO 'x'").kind()).isEqualTo(StatementKind.OTHER);
    }

    @Test
    void keywordsThatMySqlAllowsAsNamesWork() {
        Select s = (Select) SqlParser.parse("SELECT status, date, timestamp, value, data, comment, name, type, `select`"
                + " FROM log AS status WHERE status.date > 0");
        assertThat(s.items()).hasSize(9);
        assertThat(((TableRef.Table) s.from().get(0)).alias()).isEqualTo("status");
    }

    @Test
    void ansiQuotesModeReadsDoubleQuotesAsIdentifiers() {
        Parsed p = Parsed.of("SELECT \"a\" FROM \"t\" WHERE \"b\" = 'x'", new SqlMode(true, false));
        assertThat(AstPrinter.print(p.statement())).isEqualTo("(select (items a) (from t) (where (= b ?0)))");
    }

    @Test
    void syntaxErrorsReadLikeMySql() {
        SqlSyntaxException e = catchThrowableOfType(SqlSyntaxException.class, () -> SqlParser.parse("SELECT a\nFROM WHERE x = 1"));
        assertThat(e.getMessage()).isEqualTo("You have an error in your SQL syntax; check the manual that corresponds to your"
                + " MySQL server version for the right syntax to use near 'WHERE x = 1' at line 2");
        assertThat(e.tokenIndex()).isEqualTo(3);
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.errorCode()).isEqualTo(SqlSyntaxException.ER_PARSE_ERROR);
        assertThat(e.detail()).isNotBlank();
    }

    @Test
    void nearTextIsCutAtEightyCharacters() {
        String tail = "x".repeat(100);
        SqlSyntaxException e = catchThrowableOfType(SqlSyntaxException.class, () -> SqlParser.parse("SELECT FROM " + tail));
        assertThat(e.getMessage()).contains("near 'FROM " + "x".repeat(75) + "' at line 1");
    }

    @Test
    void emptyStatementsAndLexicalErrors() {
        SqlSyntaxException empty = catchThrowableOfType(SqlSyntaxException.class, () -> SqlParser.parse("  /* nothing */ "));
        assertThat(empty.errorCode()).isEqualTo(SqlSyntaxException.ER_EMPTY_QUERY);
        assertThat(empty.getMessage()).isEqualTo("Query was empty");
        SqlSyntaxException lex = catchThrowableOfType(SqlSyntaxException.class, () -> SqlParser.parse("SELECT 'abc"));
        assertThat(lex.detail()).isEqualTo("unterminated string literal");
        assertThat(lex.getMessage()).contains("near ''abc' at line 1");
        assertThatThrownBy(() -> SqlParser.parse("SELECT 1; SELECT 2")).isInstanceOf(SqlSyntaxException.class)
                .hasMessageContaining("near 'SELECT 2'");
        assertThat(SqlParser.parse("SELECT 1;;").kind()).isEqualTo(StatementKind.SELECT);
    }
}
