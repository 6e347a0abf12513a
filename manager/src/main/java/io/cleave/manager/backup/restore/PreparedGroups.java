package io.cleave.manager.backup.restore;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds, in a shard's binlog files, the XA transactions prepared before a position and not
 * committed or rolled back by then, with where each one's event group lies. A backup's snapshot does
 * not show such a transaction (it is prepared, not committed), and replaying the binlog from the
 * backup's position would meet only its XA COMMIT: its prepare group is replayed first, so the
 * commit finds it. A standby seeded at a cut replicates those groups first, for the same reason.
 *
 * <p>MariaDB (10.5 and later) marks an XA transaction's prepare group in its GTID event (flag
 * FL_PREPARED_XA, with the xid) and ends it with an XA_PREPARE event; the XA COMMIT or ROLLBACK is a
 * group of its own whose GTID event has FL_COMPLETED_XA and the same xid.
 */
public final class PreparedGroups {

    /** A prepare group: in {@code file}, from {@code start} to {@code end}. */
    public record Group(String xid, int fileIndex, long start, long end) {
    }

    private static final int HEADER = 19;
    private static final int GTID_EVENT = 162;
    private static final int XA_PREPARE_EVENT = 38;
    private static final int FL_GROUP_COMMIT_ID = 2;
    private static final int FL_PREPARED_XA = 64;
    private static final int FL_COMPLETED_XA = 128;

    private PreparedGroups() {
    }

    /**
     * The groups prepared and still pending at {@code stopFile}:{@code stopPosition}, reading {@code files}
     * (the archived binlog files in order, each whole from its first byte) up to there.
     */
    public static List<Group> pendingAt(List<byte[]> files, int stopFile, long stopPosition) throws IOException {
        Map<String, Group> pending = new LinkedHashMap<>();
        for (int f = 0; f <= stopFile && f < files.size(); f++) {
            ByteBuffer b = ByteBuffer.wrap(files.get(f)).order(ByteOrder.LITTLE_ENDIAN);
            if (b.remaining() < 4 || b.getInt(0) != 0x6e6962fe) {
                throw new IOException("archived binlog file " + f + " does not start with a binlog header");
            }
            long limit = f == stopFile ? Math.min(stopPosition, b.capacity()) : b.capacity();
            int at = 4;
            String openXid = null;
            long openStart = 0;
            while (at + HEADER <= limit) {
                int type = b.get(at + 4) & 0xFF;
                long size = b.getInt(at + 9) & 0xFFFFFFFFL;
                if (size < HEADER || at + size > limit) {
                    break; // an event ending past the position (or the archive's end): not before it
                }
                if (type == GTID_EVENT) {
                    int body = at + HEADER;
                    int flags = b.get(body + 12) & 0xFF;
                    int xidAt = body + 13 + ((flags & FL_GROUP_COMMIT_ID) != 0 ? 8 : 0);
                    String xid = (flags & (FL_PREPARED_XA | FL_COMPLETED_XA)) != 0 ? xid(b, xidAt) : null;
                    if ((flags & FL_PREPARED_XA) != 0) {
                        openXid = xid;
                        openStart = at;
                    } else if ((flags & FL_COMPLETED_XA) != 0) {
                        pending.remove(xid);
                    }
                } else if (type == XA_PREPARE_EVENT && openXid != null) {
                    pending.put(openXid, new Group(openXid, f, openStart, at + size));
                    openXid = null;
                }
                at += (int) size;
            }
        }
        return List.copyOf(pending.values());
    }

    /** formatID, gtrid and bqual as one key. */
    private static String xid(ByteBuffer b, int at) {
        int format = b.getInt(at);
        int gtrid = b.get(at + 4) & 0xFF;
        int bqual = b.get(at + 5) & 0xFF;
        byte[] data = new byte[gtrid + bqual];
        b.get(at + 6, data);
        return format + ":" + gtrid + ":" + HexFormat.of().formatHex(data);
    }
}
