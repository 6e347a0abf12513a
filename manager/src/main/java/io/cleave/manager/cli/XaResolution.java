package io.cleave.manager.cli;

import io.cleave.proxy.server.InDoubtResolution;

import java.io.IOException;
import java.io.PrintWriter;

/** What {@code xa commit} and {@code xa rollback} share: ask the daemon, print what it did. */
final class XaResolution {

    private XaResolution() {
    }

    static int run(HomeOptions options, String xid, boolean commit, boolean force, PrintWriter out) throws IOException {
        InDoubtResolution r = options.daemon().resolve(xid, commit, force);
        out.println(describe(r));
        out.flush();
        return ExitCodes.OK;
    }

    static String describe(InDoubtResolution r) {
        return (r.commit() ? "committed " : "rolled back ") + r.xid() + " on shard" + (r.settled().size() == 1 ? " " : "s ")
                + join(r) + (r.forced() ? " (forced against the coordinator's recorded decision)" : "");
    }

    private static String join(InDoubtResolution r) {
        StringBuilder sb = new StringBuilder();
        for (int shard : r.settled()) {
            sb.append(sb.length() == 0 ? "" : ", ").append(shard);
        }
        return sb.toString();
    }
}
