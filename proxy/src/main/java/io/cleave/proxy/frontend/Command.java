package io.cleave.proxy.frontend;

import io.cleave.proxy.metrics.RouteKind;
import io.cleave.proxy.protocol.packet.client.CommandCode;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.protocol.packet.server.OkPacket;
import io.cleave.router.plan.Analysis;
import io.cleave.router.plan.Effects;
import io.cleave.router.plan.ParameterValues;
import io.cleave.router.plan.PinNames;
import io.cleave.router.plan.Plan;
import io.netty.buffer.ByteBuf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;

/**
 * One client command on its way through the proxy, and everything known about it: the frame it
 * came in (relayed as it is to a single shard), its payload, and once planned, the plan with this
 * execution's values, the prepared statement it executes, the names its pins take. The handlers
 * get it passed explicitly; nothing about a command is kept on the session. It ends with exactly
 * one of {@link #ok()}, {@link #error}, {@link #fatal} or {@link #finish()}, which hands the
 * session its next command.
 *
 * <p>A text statement's analysis and values live in its event loop's reused buffers: they are
 * valid until the command's first asynchronous step, so whatever is needed later is taken before.
 */
final class Command {

    private static final Logger log = LoggerFactory.getLogger(Command.class);

    /** Where a command ends: the session reads its next one, or closes. */
    interface End {
        void finished(Command command);

        void fatal(Command command, ErrPacket error);

        /** Closes the client connection (after what was written is sent). */
        void close();
    }

    private final Session session;
    private final End end;
    private final int code;
    private final CommandCode command;
    private ByteBuf frame;
    private ByteBuf payload;
    /** A command of 16 MB or more, joined from its frames (owned; {@link #frame} is its re-framed copy). */
    private ByteBuf joined;
    private Plan plan;
    private Analysis analysis;
    private ParameterValues values;
    private ClientStatement statement;
    private boolean typesSent;
    private Effects effects = Effects.NONE;
    private PinNames pins = PinNames.NONE;
    private ClientStatement cursor;
    private boolean ended;
    /** What ROW_COUNT() reads after this statement: -1 for a result set or an error, else the rows an OK counts. */
    private long rowCount = -1;
    /** What FOUND_ROWS() reads after this statement, or {@link #FOUND_ROWS_KEPT}: it sent no result set. */
    private long foundRows = FOUND_ROWS_KEPT;
    static final long FOUND_ROWS_KEPT = -1;
    private boolean routinesRead;
    private boolean countsByOne;
    /** What runs when the command ends (see {@link #whenEnded}), or null. */
    private Runnable whenEnded;

    /**
     * @param frame   the command as one frame of sequence 0 (owned)
     * @param payload its payload: a slice of {@code frame}, or {@code joined}
     * @param joined  the payload joined from several frames, owned, or null
     */
    Command(Session session, End end, ByteBuf frame, ByteBuf payload, ByteBuf joined) {
        this.session = session;
        this.end = end;
        this.frame = frame;
        this.payload = payload;
        this.joined = joined;
        this.code = payload.isReadable() ? payload.getUnsignedByte(payload.readerIndex()) : -1;
        this.command = code < 0 ? null : CommandCode.of(code);
    }

    /** The command, or null when the client sent one the proxy does not know ({@link #code()}). */
    CommandCode command() {
        return command;
    }

    /** The command byte, -1 for an empty packet. */
    int code() {
        return code;
    }

    /** The command frame as the client sent it (sequence 0), to relay to a shard. */
    ByteBuf frame() {
        return frame;
    }

    /** The whole payload, the command byte first. */
    ByteBuf payload() {
        return payload;
    }

    // ---- the statement, once planned -----------------------------------------------------------

    /**
     * The plan this command runs and this execution's values: for a routed statement, the names
     * its pins take and the variables it assigns come with it.
     *
     * @param statement the prepared statement an execute runs (null for a text statement)
     * @param typesSent the execute carried parameter types
     */
    void planned(Plan plan, Analysis analysis, ParameterValues values, ClientStatement statement, boolean typesSent) {
        this.plan = plan;
        this.analysis = analysis;
        this.values = values;
        this.statement = statement;
        this.typesSent = typesSent;
        Plan inner = plan instanceof Plan.MultiStatement m ? m.plan() : plan;
        if (inner instanceof Plan.Route r) {
            effects = r.effects();
            pins = effects.pin().names(analysis.tokens(), values);
        }
    }

    /** The shards a lookup by a global unique key found for this command's rows (consumed by the rerun that follows it), or null. */
    private int[] lookedUp;

    int[] takeLookedUp() {
        int[] shards = lookedUp;
        lookedUp = null;
        return shards;
    }

    void lookedUp(int[] shards) {
        lookedUp = shards;
    }

    Plan plan() {
        return plan;
    }

    Analysis analysis() {
        return analysis;
    }

    ParameterValues values() {
        return values;
    }

    /** The prepared statement this command prepares or executes, or null. */
    ClientStatement statement() {
        return statement;
    }

    /** A statement being prepared: forgotten again if the shard refuses it. */
    void preparing(ClientStatement prepared) {
        this.statement = prepared;
    }

    /** An execute of a prepared statement: results go in the binary protocol. */
    boolean binary() {
        return command == CommandCode.STMT_EXECUTE;
    }

    boolean typesSent() {
        return typesSent;
    }

    /** What the statement needs from or leaves on its connection (none for plans that are not routed). */
    Effects effects() {
        return effects;
    }

    /** The connection-bound state the statement creates or releases, by name. */
    PinNames pins() {
        return pins;
    }

    /** User variables the statement assigns outside SET (empty: none), read back after it. */
    List<String> assignedVariables() {
        return effects.assignedVariables();
    }

    /**
     * A CALL of a procedure that may set {@code variables} (read back after it) and, when
     * {@code connectionState}, leave state on its connection that only a session reset ends;
     * {@code countsByOne}: it runs on the default shard over unsharded tables, whose AUTO_INCREMENT
     * counts by one as on one server.
     */
    void runsRoutine(List<String> variables, boolean connectionState, boolean countsByOne) {
        List<String> assigned = new java.util.ArrayList<>(effects.assignedVariables());
        for (String v : variables) {
            if (!assigned.contains(v)) {
                assigned.add(v);
            }
        }
        effects = new Effects(effects.usesLastInsertId(), effects.previousConnection(), effects.pin(), assigned,
                effects.countsFoundRows());
        if (connectionState) {
            // Unnamed, so held until the session resets or ends.
            pins = new PinNames(io.cleave.router.plan.Pin.TEMPORARY_TABLE, List.of(), List.of(), false, false);
        }
        this.countsByOne = countsByOne;
    }

    /** Whether the statement's AUTO_INCREMENT counts by one although its plan does not say so (a CALL). */
    boolean countsByOne() {
        return countsByOne;
    }

    /** Whether this command has read the stored routines afresh already (so it does not again). */
    boolean routinesRead() {
        return routinesRead;
    }

    void routinesRead(boolean read) {
        this.routinesRead = read;
    }

    /** The prepared statement whose cursor this execute or fetch may open or end, or null. */
    ClientStatement cursor() {
        return cursor;
    }

    void cursor(ClientStatement statement) {
        this.cursor = statement;
    }

    /** Long data sent for an execute is used up once the execute has gone out (or failed before). */
    void clearLongData() {
        if (binary() && statement != null) {
            statement.clearLongData();
        }
    }

    // ---- ending ---------------------------------------------------------------------------------

    /** Counts the command in the metrics, by how it was served. */
    void served(RouteKind route) {
        session.metrics().command(command, route);
    }

    /** OK with the session's status. */
    void ok() {
        ok(OkPacket.of(0, 0, session.status(), 0));
    }

    void ok(OkPacket ok) {
        if (endsTwice()) {
            return;
        }
        session.output().ok(ok);
        rowCount = ok.affectedRows();
        finish();
    }

    void error(int errorCode, String sqlState, String message) {
        if (endsTwice()) {
            return;
        }
        session.metrics().error(errorCode);
        session.output().error(errorCode, sqlState, message);
        finish();
    }

    void error(ErrPacket error) {
        error(error.errorCode(), error.sqlState(), error.message());
    }

    /** Refused by the proxy: what cannot be done correctly gets an error, never a wrong answer. */
    void refuse(int errorCode, String sqlState, String message) {
        if (endsTwice()) {
            return;
        }
        served(RouteKind.REFUSED);
        error(errorCode, sqlState, message);
    }

    /** Refused with 1235 (ER_NOT_SUPPORTED_YET). */
    void refuse(String message) {
        refuse(1235, "42000", message);
    }

    /** An error after which the connection cannot go on: sent, then the connection closes. */
    void fatal(int errorCode, String sqlState, String message) {
        if (endsTwice()) {
            return;
        }
        ended = true;
        runWhenEnded();
        end.fatal(this, new ErrPacket(errorCode, sqlState, message));
    }

    /** Done: what was written goes out and the next command may start. */
    void finish() {
        session.output().flush();
        finishSilently();
    }

    /**
     * A result set of {@code rows} rows went to the client (the last, when several did; for SQL_CALC_FOUND_ROWS
     * the rows without LIMIT): FOUND_ROWS() reads it after this statement.
     */
    void foundRows(long rows) {
        foundRows = rows;
    }

    /** Answers with a result set the proxy made (merged, filtered or its own) and ends the command. */
    void answer(List<io.cleave.proxy.merge.ResultColumn> columns, List<io.cleave.proxy.merge.TextRow> rows, int warnings) {
        ResultWriter.write(session.output(), columns, rows, binary(), session.status(), warnings);
        foundRows(rows.size());
        finish();
    }

    /**
     * The client's text with the proxy's values written in (see {@link SessionValues}): the command
     * is planned and relayed as this text from now on.
     */
    void replaceQueryText(byte[] sql) {
        ByteBuf whole = frame.alloc().buffer(1 + sql.length);
        whole.writeByte(CommandCode.QUERY.code());
        whole.writeBytes(sql);
        ByteBuf copy = io.cleave.proxy.protocol.Frames.begin(frame.alloc(), whole.readableBytes());
        copy.writeBytes(whole, whole.readerIndex(), whole.readableBytes());
        release();
        frame = io.cleave.proxy.protocol.Frames.finish(copy, 0);
        payload = whole;
        joined = whole;
    }

    /** A shard's OK was relayed: ROW_COUNT() reads its count of rows after this statement. */
    void relayedOk(long affectedRows) {
        rowCount = affectedRows;
    }

    /** Done without a response (COM_STMT_CLOSE, COM_STMT_SEND_LONG_DATA). */
    void finishSilently() {
        if (endsTwice()) {
            return;
        }
        ended = true;
        if (command == CommandCode.QUERY || command == CommandCode.STMT_EXECUTE) {
            // The session's statements run on many connections: the proxy keeps what the last one
            // counted, as the server keeps it for its connection.
            session.rowCount(rowCount);
            if (foundRows != FOUND_ROWS_KEPT) {
                session.foundRows(foundRows);
            }
        }
        runWhenEnded();
        end.finished(this);
    }

    /** Runs {@code then} when the command ends, however it ends (a read's snapshots end with it). */
    void whenEnded(Runnable then) {
        whenEnded = then;
    }

    private void runWhenEnded() {
        Runnable then = whenEnded;
        if (then != null) {
            whenEnded = null;
            then.run();
        }
    }

    /** Closes the client connection; the command still ends as usual. */
    void closeConnection() {
        end.close();
    }

    /**
     * Whether the command has ended already: a handler bug, since a second answer would be read
     * as the next command's. It is logged and nothing more is sent.
     */
    private boolean endsTwice() {
        if (ended) {
            log.error("command {} of connection {} ended twice; the second end is ignored", command,
                    session.connectionId(), new IllegalStateException("ended twice"));
        }
        return ended;
    }

    boolean ended() {
        return ended;
    }

    /** Gives back the command's buffers. */
    void release() {
        if (frame != null) {
            frame.release();
            frame = null;
        }
        if (joined != null) {
            joined.release();
            joined = null;
        }
        payload = null;
    }
}
