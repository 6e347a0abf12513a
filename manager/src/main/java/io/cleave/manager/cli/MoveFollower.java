package io.cleave.manager.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;

import java.io.IOException;
import java.io.PrintWriter;

/** Follows one move to its end for {@code --wait}: a progress bar on a terminal, plain lines otherwise. */
final class MoveFollower {

    static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    private static final long POLL_MILLIS = 250;

    private MoveFollower() {
    }

    /** Exit 0 when the move is done, 1 when it failed or was cancelled. */
    static int follow(AdminClient daemon, long id, PrintWriter out, boolean json) throws IOException, InterruptedException {
        MoveProgress progress = new MoveProgress(out, !json && System.console() != null);
        MoveRecord r = daemon.move(id);
        while (!r.phase.terminal()) {
            if (!json) {
                progress.show(r);
            }
            Thread.sleep(POLL_MILLIS);
            r = daemon.move(id);
        }
        if (json) {
            out.println(JSON.writeValueAsString(r));
        } else {
            progress.show(r);
            if (r.phase == MovePhase.DONE) {
                out.printf("move %d done: %,d rows copied, clients paused %.1f ms at the cutover%n", r.id, r.rowsCopied,
                        r.pauseMillis);
            } else {
                out.printf("move %d %s: %s%n", r.id, r.phase.name().toLowerCase(), r.message);
            }
        }
        out.flush();
        return r.phase == MovePhase.DONE ? ExitCodes.OK : ExitCodes.FAILED;
    }
}
