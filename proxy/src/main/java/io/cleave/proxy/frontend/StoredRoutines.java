package io.cleave.proxy.frontend;

import io.cleave.proxy.merge.TextRow;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.server.LoopResources;
import io.cleave.router.routine.RoutineProfile;
import io.cleave.router.routine.RoutineProfiler;
import io.cleave.router.routine.Routines;
import io.cleave.router.sql.lex.SqlMode;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The home's stored procedures and functions, as the default shard's information_schema lists
 * them (routines are created on every shard, so every shard lists the same): each one's parameters
 * and what its body names and does. Read on the first CALL, kept until a routine's DDL passes the
 * proxy (or a CALL names a procedure it does not know: one created on the shards directly).
 */
public final class StoredRoutines {

    /** Called with the routines (null when they could not be read: the error). */
    interface Callback {
        void done(Routines routines, ErrPacket error);
    }

    private static final byte[] QUERY = ("SELECT r.ROUTINE_SCHEMA, r.ROUTINE_NAME, r.ROUTINE_TYPE, r.ROUTINE_DEFINITION,"
            + " r.SQL_MODE, (SELECT GROUP_CONCAT(p.PARAMETER_NAME ORDER BY p.ORDINAL_POSITION SEPARATOR '\\n')"
            + " FROM information_schema.PARAMETERS p WHERE p.SPECIFIC_SCHEMA = r.ROUTINE_SCHEMA"
            + " AND p.SPECIFIC_NAME = r.ROUTINE_NAME AND p.ROUTINE_TYPE = r.ROUTINE_TYPE AND p.ORDINAL_POSITION > 0)"
            + " FROM information_schema.ROUTINES r"
            + " WHERE r.ROUTINE_SCHEMA NOT IN ('mysql', 'sys', 'information_schema', 'performance_schema', 'cleave')")
            .getBytes(StandardCharsets.UTF_8);

    private final int defaultShard;
    private final AtomicLong generation = new AtomicLong();
    private volatile Routines known;

    public StoredRoutines(int defaultShard) {
        this.defaultShard = defaultShard;
    }

    /** The routines as last read, or null when they must be read (again). */
    Routines cached() {
        return known;
    }

    /** Reads the routines from the default shard. */
    void load(LoopResources loop, Callback callback) {
        long asOf = generation.get();
        new MultiExchange(new SystemContext(loop), false, results -> {
            LegResult r = results.get(0);
            if (!r.ok()) {
                callback.done(null, r.errorPacket());
                return;
            }
            List<Routines.Routine> routines = new ArrayList<>(r.rows.size());
            for (TextRow row : r.rows) {
                routines.add(routine(row));
            }
            Routines read = new Routines(routines);
            // A routine's DDL that passed meanwhile may not show in what was read: keep it only if none did.
            if (generation.get() == asOf) {
                known = read;
            }
            callback.done(read, null);
        }).leg(defaultShard, QUERY).start();
    }

    /** A routine was created, changed or dropped (or a schema with routines): read them all again next time. */
    public void forget() {
        generation.incrementAndGet();
        known = null;
    }

    private static Routines.Routine routine(TextRow row) {
        String body = row.string(3);
        String sqlMode = row.string(4) == null ? "" : row.string(4).toUpperCase(Locale.ROOT);
        String parameters = row.string(5);
        return new Routines.Routine(row.string(0), row.string(1), "PROCEDURE".equalsIgnoreCase(row.string(2)),
                parameters == null || parameters.isEmpty() ? List.of() : Arrays.asList(parameters.split("\n")),
                body == null ? RoutineProfile.UNREADABLE : RoutineProfiler.profile(body,
                        new SqlMode(sqlMode.contains("ANSI_QUOTES"), sqlMode.contains("NO_BACKSLASH_ESCAPES"))));
    }
}
