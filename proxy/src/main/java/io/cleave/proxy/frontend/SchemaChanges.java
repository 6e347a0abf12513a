package io.cleave.proxy.frontend;

import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.server.SchemaDriftLog;
import io.cleave.router.ddl.DdlInverse;
import io.cleave.router.sql.ast.Ddl;
import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.parse.SqlParser;
import io.cleave.router.sql.parse.SqlSyntaxException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A structure change on every shard, all or nothing for the client as on one server: it runs on
 * the default shard first, and a failure there (a name taken, a table that does not exist) is the
 * client's answer with nothing changed anywhere. Then it runs on the others; when some refuse it,
 * the shards that applied it are undone by its inverse ({@link DdlInverse}) and the client gets
 * the error. A change without an inverse (DROP, TRUNCATE, most ALTERs), or whose undo fails,
 * leaves the shards different: that is recorded ({@link SchemaDriftLog}) for {@code cleave status}
 * and {@code cleave repair}, and the error says so.
 */
final class SchemaChanges {

    private static final Logger log = LoggerFactory.getLogger(SchemaChanges.class);

    private final Session session;
    private final FanOutWrites writes;

    SchemaChanges(Session session, FanOutWrites writes) {
        this.session = session;
        this.writes = writes;
    }

    /**
     * {@code unique}: the change's part in global unique keys (null: none), told once every shard
     * applied it, before the client's OK, or once some did not, before the error.
     */
    void run(Command command, int[] shards, byte[] sql, String what, UniqueDdl unique) {
        // The analysis lives in the loop's buffers: what undoing needs is taken now.
        String inverse = inverse(command);
        String schema = session.settings().schema();
        int first = first(shards);
        new MultiExchange(new CommandLegs(session, command), false, firstResult -> {
            LegResult leg = firstResult.get(0);
            if (!leg.ok() || shards.length == 1) {
                Runnable answer = () -> writes.written(command, firstResult, true, what);
                if (unique == null) {
                    answer.run();
                } else if (leg.ok()) {
                    unique.after(command, answer);
                } else {
                    unique.failed(command, leg.errorPacket(), answer);
                }
                return;
            }
            MultiExchange rest = new MultiExchange(new CommandLegs(session, command), false, results -> {
                List<LegResult> all = new ArrayList<>(firstResult);
                all.addAll(results);
                Runnable answer = all.stream().allMatch(LegResult::ok) ? () -> writes.written(command, all, true, what)
                        : () -> undo(command, all, inverse, new String(sql, StandardCharsets.UTF_8), schema, what);
                if (unique == null) {
                    answer.run();
                } else if (all.stream().allMatch(LegResult::ok)) {
                    unique.after(command, answer);
                } else {
                    unique.failed(command, firstError(all), answer);
                }
            });
            for (int s : shards) {
                if (s != first) {
                    rest.leg(s, sql);
                }
            }
            rest.start();
        }).leg(first, sql).start();
    }

    private static ErrPacket firstError(List<LegResult> results) {
        for (LegResult leg : results) {
            if (!leg.ok()) {
                return leg.errorPacket();
            }
        }
        return null;
    }

    /** The default shard when the change reaches it, else the first shard. */
    private int first(int[] shards) {
        int defaultShard = session.runtime().topology().defaultShard();
        for (int s : shards) {
            if (s == defaultShard) {
                return s;
            }
        }
        return shards[0];
    }

    /** Undoes the change where it applied, or records that the shards differ; the client gets the failure. */
    private void undo(Command command, List<LegResult> results, String inverse, String statement, String schema,
                      String what) {
        List<Integer> applied = new ArrayList<>();
        List<Integer> failed = new ArrayList<>();
        ErrPacket error = null;
        for (LegResult leg : results) {
            if (leg.ok()) {
                applied.add(leg.shard);
            } else {
                failed.add(leg.shard);
                error = error == null ? leg.errorPacket() : error;
            }
        }
        ErrPacket cause = error;
        if (inverse == null) {
            drifted(command, statement, schema, what, applied, failed, cause, "it has no inverse to undo it with");
            return;
        }
        MultiExchange undo = new MultiExchange(new CommandLegs(session, command), false, undone -> {
            List<Integer> stillApplied = new ArrayList<>();
            for (LegResult leg : undone) {
                if (!leg.ok()) {
                    stillApplied.add(leg.shard);
                    log.warn("undoing {} on shard {} with {} failed: {}", LogSafe.text(statement), leg.shard,
                            inverse, LogSafe.text(leg.errorPacket().message()));
                }
            }
            if (!stillApplied.isEmpty()) {
                drifted(command, statement, schema, what, stillApplied, failed, cause, "undoing it with " + inverse
                        + " failed on shard(s) " + stillApplied);
                return;
            }
            command.error(cause.errorCode(), cause.sqlState(), cause.message() + " (on shard(s) " + failed + "; the "
                    + what + " was undone on shard(s) " + applied + ", where it had applied)");
        });
        byte[] undoing = inverse.getBytes(StandardCharsets.UTF_8);
        for (int s : applied) {
            undo.leg(s, undoing);
        }
        undo.start();
    }

    private void drifted(Command command, String statement, String schema, String what, List<Integer> applied,
                         List<Integer> failed, ErrPacket cause, String why) {
        try {
            session.runtime().schemaDriftLog().record(new SchemaDriftLog.UnfinishedChange(schema, statement, applied,
                    failed, cause.message()));
        } catch (RuntimeException e) {
            log.error("could not record that {} applied on shard(s) {} only: {}", LogSafe.text(statement), applied,
                    e.getMessage());
        }
        log.warn("{} applied on shard(s) {} but failed on shard(s) {} ({}): {}", LogSafe.text(statement), applied, failed,
                why, LogSafe.text(cause.message()));
        command.error(cause.errorCode(), cause.sqlState(), what + " applied on shard(s) " + applied + " but failed on"
                + " shard(s) " + failed + ": " + cause.message() + "; " + why + ", so the shards' schemas differ: 'cleave"
                + " status' shows how, and 'cleave repair' completes it on shard(s) " + failed);
    }

    /** The statement that undoes the command's DDL, or null. */
    private static String inverse(Command command) {
        try {
            Statement s = new SqlParser().parse(command.analysis().tokens(), command.analysis().digest());
            return s instanceof Ddl ddl ? DdlInverse.of(ddl, command.analysis().tokens()) : null;
        } catch (SqlSyntaxException e) {
            return null;
        }
    }
}
