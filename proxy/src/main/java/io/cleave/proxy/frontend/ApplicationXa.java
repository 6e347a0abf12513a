package io.cleave.proxy.frontend;

import io.cleave.proxy.merge.TextRow;
import io.cleave.proxy.metrics.RouteKind;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.router.plan.SessionAction;
import io.cleave.router.plan.SqlRenderer;
import io.cleave.router.plan.SqlTemplate;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The application's own XA transactions ({@code XA START 'x1'} ... {@code XA COMMIT 'x1'}, as
 * Java EE and JTA transaction managers issue them). A branch lives on one shard: XA START waits,
 * as BEGIN does, for the first statement that names a shard and goes with it; from then on the
 * branch's XA statements go to that shard and the server answers them. A statement that would
 * reach another shard is refused (the proxy's own two-phase commit cannot take part in the
 * application's). A prepared branch outlives its session (as on the server): XA COMMIT and XA
 * ROLLBACK of it, from any session, go to the shard that holds it, found by XA RECOVER on every
 * shard; XA RECOVER lists the application's prepared branches of every shard, never the proxy's own.
 */
final class ApplicationXa {

    /** The prefix of the proxy's own XA ids (its two-phase commits), which XA RECOVER does not show the application. */
    static final String PROXY_XID_PREFIX = "cleave:";

    private final Session session;

    ApplicationXa(Session session) {
        this.session = session;
    }

    void run(Command command, SessionAction.Xa xa) {
        if (xa.option()) {
            command.refuse("XA with JOIN, RESUME, SUSPEND or FOR MIGRATE is not supported through the proxy");
            return;
        }
        TransactionState tx = session.transaction();
        switch (xa.op()) {
            case RECOVER -> recover(command);
            case START -> start(command, xa, tx);
            case END -> {
                ErrPacket e = mismatch(command, xa, tx, false);
                if (e != null) {
                    command.error(e);
                } else {
                    onBranch(command, () -> tx.applicationXaIdle(true));
                }
            }
            case PREPARE -> {
                ErrPacket e = mismatch(command, xa, tx, true);
                if (e != null) {
                    command.error(e);
                } else {
                    int shard = tx.onlyShard();
                    String key = tx.applicationXidKey();
                    onBranch(command, () -> {
                        session.runtime().preparedXa().put(key, shard);
                        ended(tx, shard);
                    });
                }
            }
            case COMMIT, ROLLBACK -> finish(command, xa, tx);
            default -> throw new IllegalStateException(xa.op().name());
        }
    }

    private void start(Command command, SessionAction.Xa xa, TransactionState tx) {
        if (tx.applicationXid() != null) {
            command.error(rmfail(tx));
        } else if (tx.active()) {
            command.error(1400, "XAE09", "XAER_OUTSIDE: Some work is done outside global transaction");
        } else {
            tx.end();
            tx.beginApplicationXa(xidText(command, xa), key(command, xa));
            command.ok();
        }
    }

    /**
     * XA COMMIT or ROLLBACK: of the session's own branch (one phase, or a rollback) on its shard;
     * else of a branch prepared earlier, by this session or another, on the shard that holds it.
     */
    private void finish(Command command, SessionAction.Xa xa, TransactionState tx) {
        if (tx.applicationXid() != null) {
            ErrPacket e = xa.op() == SessionAction.XaOp.COMMIT && !xa.onePhase() || !tx.applicationXaIdle()
                    ? rmfail(tx) : mismatch(command, xa, tx, true);
            if (e != null) {
                command.error(e);
            } else if (tx.begun()) {
                int shard = tx.onlyShard();
                onBranch(command, () -> ended(tx, shard));
            } else {
                tx.end();
                command.ok();
            }
            return;
        }
        String key = key(command, xa);
        byte[] sql = statement(command);
        Integer known = session.runtime().preparedXa().get(key);
        if (known != null) {
            settle(command, sql, key, known);
            return;
        }
        int shards = session.runtime().shardMaps().current().shardCount();
        MultiExchange recover = new MultiExchange(new CommandLegs(session, command), false, results -> {
            int found = session.runtime().topology().defaultShard();
            for (LegResult leg : results) {
                for (TextRow row : leg.ok() ? leg.rows : List.<TextRow>of()) {
                    if (key.equals(key(row))) {
                        found = leg.shard;
                    }
                }
            }
            // Found nowhere: the default shard answers as a server does (XAER_NOTA).
            settle(command, sql, key, found);
        });
        for (int s = 0; s < shards; s++) {
            recover.leg(s, "XA RECOVER".getBytes(StandardCharsets.US_ASCII));
        }
        recover.start();
    }

    private void settle(Command command, byte[] sql, String key, int shard) {
        command.served(RouteKind.SINGLE_SHARD);
        new MultiExchange(new CommandLegs(session, command), false, results -> {
            LegResult leg = results.get(0);
            if (!leg.ok()) {
                command.error(leg.errorPacket());
                return;
            }
            session.runtime().preparedXa().remove(key);
            command.ok();
        }).leg(shard, sql).start();
    }

    /**
     * Runs the client's XA statement on the branch's shard (the default shard when no statement has
     * given the branch one: XA START goes first there); {@code then} on success, before the OK.
     */
    private void onBranch(Command command, Runnable then) {
        TransactionState tx = session.transaction();
        int shard = tx.begun() ? tx.onlyShard() : session.runtime().topology().defaultShard();
        command.served(RouteKind.SINGLE_SHARD);
        new MultiExchange(new CommandLegs(session, command), true, results -> {
            LegResult leg = results.get(0);
            if (!leg.ok()) {
                command.error(leg.errorPacket());
                return;
            }
            then.run();
            command.ok();
        }).leg(shard, statement(command)).start();
    }

    /** The branch ended on its shard (prepared, committed or rolled back): its connection goes back to the pool. */
    private void ended(TransactionState tx, int shard) {
        io.cleave.proxy.backend.BackendConnection c = tx.drop(shard);
        tx.end();
        if (c != null) {
            session.connections().keepOrGiveBack(shard, c, false);
        }
    }

    /** XA RECOVER on every shard: the application's prepared branches, not the proxy's own. */
    private void recover(Command command) {
        int shards = session.runtime().shardMaps().current().shardCount();
        byte[] sql = statement(command);
        command.served(RouteKind.MULTI_SHARD);
        MultiExchange multi = new MultiExchange(new CommandLegs(session, command), false, results -> {
            List<TextRow> rows = new ArrayList<>();
            for (LegResult leg : results) {
                if (!leg.ok()) {
                    command.error(leg.errorPacket());
                    return;
                }
                for (TextRow row : leg.rows) {
                    String data = row.isNull(3) ? "" : row.string(3);
                    if (!data.startsWith(PROXY_XID_PREFIX) && !data.startsWith("'" + PROXY_XID_PREFIX)) {
                        rows.add(row);
                    }
                }
            }
            command.answer(results.get(0).columns, rows, 0);
        });
        for (int s = 0; s < shards; s++) {
            multi.leg(s, sql);
        }
        multi.start();
    }

    /**
     * The server's error for an XA statement naming {@code xa}'s xid in the session's current state,
     * or null when it fits: the session's branch must be the one named, IDLE (after XA END) when
     * {@code idle}, else ACTIVE.
     */
    private ErrPacket mismatch(Command command, SessionAction.Xa xa, TransactionState tx, boolean idle) {
        if (tx.applicationXid() == null) {
            return new ErrPacket(1399, "XAE07", "XAER_RMFAIL: The command cannot be executed when global transaction"
                    + " is in the  NON-EXISTING state");
        }
        if (!tx.applicationXidKey().equals(key(command, xa))) {
            return new ErrPacket(1397, "XAE04", "XAER_NOTA: Unknown XID");
        }
        return tx.applicationXaIdle() == idle ? null : rmfail(tx);
    }

    /** XAER_RMFAIL in the branch's state. */
    static ErrPacket rmfail(TransactionState tx) {
        return new ErrPacket(1399, "XAE07", "XAER_RMFAIL: The command cannot be executed when global transaction is in"
                + " the  " + (tx.applicationXaIdle() ? "IDLE" : "ACTIVE") + " state");
    }

    /**
     * Why a statement may not run on {@code shard} (joining the transaction there) while the session
     * has an XA branch, or null: in IDLE state nothing runs, and a branch stays on its shard.
     */
    static ErrPacket reaching(TransactionState tx, int shard) {
        if (tx.applicationXid() == null) {
            return null;
        }
        if (tx.applicationXaIdle()) {
            return rmfail(tx);
        }
        int branch = tx.begun() ? tx.onlyShard() : -1;
        if (branch >= 0 && branch != shard || shard < 0) {
            return new ErrPacket(1235, "42000", "this statement reaches " + (shard < 0 ? "several shards"
                    : "shard " + shard) + ", and the XA transaction " + tx.applicationXid() + " is on shard "
                    + branch + ": an application's XA transaction stays on one shard through the proxy");
        }
        return null;
    }

    // ---- xids ------------------------------------------------------------------------------------

    private static String xidText(Command command, SessionAction.Xa xa) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SqlRenderer.append(out, new SqlTemplate.Tokens(xa.xidFirst(), xa.xidEnd()), command.analysis(), command.values());
        return out.toString(StandardCharsets.UTF_8);
    }

    /** The xid as formatID:hex(gtrid):hex(bqual), as XA RECOVER's columns give it too. */
    private static String key(Command command, SessionAction.Xa xa) {
        String[] parts = {"", "", "1"};
        for (int i = 0; i < xa.xidSlots().size() && i < 3; i++) {
            int slot = xa.xidSlots().get(i);
            String value = slot >= 0 ? command.values().text(slot)
                    : io.cleave.router.sql.lex.Identifiers.unquote(command.analysis().tokens().text(xa.xidFirst() + 2 * i));
            parts[i] = value == null ? "" : value;
        }
        return parts[2].strip() + ":" + hex(parts[0].getBytes(StandardCharsets.UTF_8)) + ":"
                + hex(parts[1].getBytes(StandardCharsets.UTF_8));
    }

    /** The key of an XA RECOVER row: formatID, gtrid_length, bqual_length, data. */
    private static String key(TextRow row) {
        byte[] data = row.bytes(3);
        int gtrid = Integer.parseInt(row.string(1));
        byte[] g = java.util.Arrays.copyOfRange(data, 0, Math.min(gtrid, data.length));
        byte[] b = java.util.Arrays.copyOfRange(data, Math.min(gtrid, data.length), data.length);
        return row.string(0) + ":" + hex(g) + ":" + hex(b);
    }

    private static String hex(byte[] bytes) {
        return HexFormat.of().formatHex(bytes);
    }

    private static byte[] statement(Command command) {
        return SqlRenderer.render(new SqlTemplate.Original(), command.analysis(), command.values());
    }
}
