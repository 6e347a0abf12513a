package io.cleave.proxy.frontend;

import io.cleave.router.plan.Analysis;
import io.cleave.router.plan.LocalQuery;
import io.cleave.router.plan.Plan;
import io.cleave.router.plan.SessionCalls;
import io.cleave.router.sql.ast.Query;
import io.cleave.router.sql.ast.Select;
import io.cleave.router.sql.ast.SelectItem;
import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.parse.SqlParser;
import io.cleave.router.sql.parse.SqlSyntaxException;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.TreeMap;

/**
 * A statement that calls ROW_COUNT() or FOUND_ROWS() inside other expressions: the proxy writes
 * the session's values in place of the calls (what the server reads when the statement starts)
 * and runs the statement afresh, planned as written with those numbers. A select-list item that
 * held a call keeps the column name the server gives it, the expression as the client wrote it.
 * Only the text's first statement is rewritten: later ones run after it on the same connection,
 * where the server's own values are right.
 */
final class SessionValues {

    private final Session session;

    SessionValues(Session session) {
        this.session = session;
    }

    /** A text statement (prepared ones are refused when prepared: {@link #PREPARED_REFUSAL}). */
    void run(Command command, Plan.Local local, Runnable rerun) {
        command.replaceQueryText(rewritten(command.analysis(), local.nameEnd()));
        rerun.run();
    }

    static final String PREPARED_REFUSAL = "ROW_COUNT() and FOUND_ROWS() inside a larger expression of a prepared"
            + " statement would read what another client's statement left on a shared connection: select them alone"
            + " (SELECT ROW_COUNT(), SELECT FOUND_ROWS()) or send the statement as text";

    /** The statement's text with the calls among its first {@code end} tokens replaced by the session's values. */
    private byte[] rewritten(Analysis analysis, int end) {
        TokenBuffer tokens = analysis.tokens();
        // By byte position: what replaces the bytes up to the given end (a call), or goes in there (a name).
        TreeMap<Integer, Edit> edits = new TreeMap<>();
        for (int call = SessionCalls.next(tokens, 0, end); call >= 0; call = SessionCalls.next(tokens, call + 3, end)) {
            long value = SessionCalls.function(tokens, call) == LocalQuery.ROW_COUNT ? session.rowCount() : session.foundRows();
            // Typed BIGINT as the function is (a bare small number would be INT in the result's metadata).
            edits.put(tokens.start(call), new Edit(tokens.end(call + 2),
                    ("(" + value + " + 0 * " + Long.MAX_VALUE + ")").getBytes(StandardCharsets.US_ASCII)));
        }
        columnNames(analysis, end).forEach((last, name) -> edits.put(tokens.end(last), new Edit(tokens.end(last), name)));
        byte[] src = tokens.source();
        ByteArrayOutputStream out = new ByteArrayOutputStream(tokens.length() + 32);
        int copied = tokens.offset();
        for (var e : edits.entrySet()) {
            out.write(src, copied, e.getKey() - copied);
            out.writeBytes(e.getValue().text());
            copied = e.getValue().resumeAt();
        }
        out.write(src, copied, tokens.offset() + tokens.length() - copied);
        return out.toByteArray();
    }

    /** Text that goes in at a position, the original resuming at {@code resumeAt}. */
    private record Edit(int resumeAt, byte[] text) {
    }

    /**
     * {@code " AS `expression`"} by the last token of each unaliased select-list item that calls
     * them (of the first SELECT of a query, which names the columns); none when the statement is
     * not one the parser reads.
     */
    private static TreeMap<Integer, byte[]> columnNames(Analysis analysis, int end) {
        TreeMap<Integer, byte[]> names = new TreeMap<>();
        TokenBuffer tokens = analysis.tokens();
        if (end < tokens.size()) {
            return names;
        }
        Statement statement;
        try {
            statement = new SqlParser().parse(tokens, analysis.digest());
        } catch (SqlSyntaxException e) {
            return names;
        }
        Select select = firstSelect(statement);
        if (select == null) {
            return names;
        }
        for (SelectItem item : select.items()) {
            if (item instanceof SelectItem.Column c && c.alias() == null) {
                int first = c.span().first();
                int last = c.span().last();
                int call = SessionCalls.next(tokens, first, last + 1);
                if (call >= 0) {
                    // The client's own bytes, in its character set: only backquotes are doubled.
                    ByteArrayOutputStream name = new ByteArrayOutputStream();
                    name.writeBytes(" AS `".getBytes(StandardCharsets.US_ASCII));
                    byte[] src = tokens.source();
                    for (int b = tokens.start(first); b < tokens.end(last); b++) {
                        if (src[b] == '`') {
                            name.write('`');
                        }
                        name.write(src[b]);
                    }
                    name.write('`');
                    names.put(last, name.toByteArray());
                }
            }
        }
        return names;
    }

    private static Select firstSelect(Statement statement) {
        Statement s = statement;
        while (true) {
            if (s instanceof Select select) {
                return select;
            }
            if (s instanceof Query.SetOperation op) {
                s = op.left();
            } else if (s instanceof Query.Parenthesized p) {
                s = p.query();
            } else {
                return null;
            }
        }
    }
}
