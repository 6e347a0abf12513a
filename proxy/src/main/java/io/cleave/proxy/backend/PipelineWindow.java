package io.cleave.proxy.backend;

import io.netty.channel.EventLoop;

import java.util.Arrays;
import java.util.function.Predicate;

/**
 * Where autocommit statements of different clients meet on one backend connection. A statement
 * that may share its connection is written without a flush and its connection is held open here
 * until the end of the event loop's current pass (a task queued on the loop runs after the I/O
 * of the pass): statements of other clients of the same pass that fit (same response profile,
 * same session settings, see the caller's test) are written behind it on the same connection, up
 * to {@code depth} commands, and the pass ends with one flush per connection. The shard then
 * reads several commands per wake-up and answers them in order, which the connection's response
 * queue already follows. Only statements that would otherwise each take a connection of their
 * own in that same pass meet here, so a statement never waits behind one that was sent earlier.
 *
 * <p>One per pool, touched by its loop only: no locks. Holds a handful of connections at most
 * (a full one stays until the pass ends beside the next), so an array scanned in place is enough.
 */
final class PipelineWindow implements Runnable {

    private final EventLoop loop;
    private final int depth;
    private BackendConnection[] open = new BackendConnection[2];
    /** Whether statements may still go behind what was written on {@code open[i]}. */
    private boolean[] accepting = new boolean[2];
    private int openCount;
    private boolean flushQueued;
    private long joined;

    PipelineWindow(EventLoop loop, int depth) {
        this.loop = loop;
        this.depth = depth;
    }

    boolean enabled() {
        return depth > 1;
    }

    /**
     * A connection logged in as {@code login} held open in this pass with room for one more command
     * that {@code fits}, or null. The caller counts itself as one more borrower of it.
     */
    BackendConnection find(ShardLogin login, Predicate<BackendConnection> fits) {
        for (int i = 0; i < openCount; i++) {
            BackendConnection c = open[i];
            if (accepting[i] && c.login() == login && c.pendingResponses() < depth
                    && c.isUsable()
                    && fits.test(c)) {
                joined++;
                return c;
            }
        }
        return null;
    }

    /**
     * A statement that may share {@code conn} was written on it: flushed at the end of the pass;
     * until then others may go behind it if {@code followers}.
     */
    void hold(BackendConnection conn, boolean followers) {
        for (int i = 0; i < openCount; i++) {
            if (open[i] == conn) {
                accepting[i] &= followers;
                return;
            }
        }
        if (openCount == open.length) {
            open = Arrays.copyOf(open, openCount * 2);
            accepting = Arrays.copyOf(accepting, openCount * 2);
        }
        accepting[openCount] = followers;
        open[openCount++] = conn;
        queueFlush();
    }

    /** How many statements were written behind another one so far. */
    long joined() {
        return joined;
    }

    private void queueFlush() {
        if (!flushQueued) {
            flushQueued = true;
            loop.execute(this);
        }
    }

    /** The end of the pass: every held connection goes out in one write. */
    @Override
    public void run() {
        flushQueued = false;
        for (int i = 0; i < openCount; i++) {
            BackendConnection c = open[i];
            open[i] = null;
            c.flush();
        }
        openCount = 0;
    }
}
