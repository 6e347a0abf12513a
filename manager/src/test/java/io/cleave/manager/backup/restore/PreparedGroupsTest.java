package io.cleave.manager.backup.restore;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Binlog files written event by event as MariaDB lays them out (header, GTID events with the XA
 * flags and xid, XA_PREPARE events, other events in between), and the prepare groups found pending
 * at a position in them.
 */
class PreparedGroupsTest {

    private static final int QUERY = 2;
    private static final int XID = 16;

    @Test
    void aPrepareGroupIsPendingUntilItsCompletionAndItsBoundsAreTheGtidEventAndTheXaPrepareEvent() throws IOException {
        Binlog f = new Binlog();
        f.event(QUERY, 30);
        long aStart = f.gtid(64, false, "cleave:0:1");
        f.event(QUERY, 40);
        long aEnd = f.xaPrepare();
        long bStart = f.gtid(64, true, "cleave:1:7");
        long bEnd = f.xaPrepare();
        long beforeCommitOfA = f.size();
        f.gtid(128, false, "cleave:0:1");
        f.event(QUERY, 20);
        long end = f.size();

        assertThat(PreparedGroups.pendingAt(List.of(f.bytes()), 0, beforeCommitOfA))
                .containsExactly(new PreparedGroups.Group(xid("cleave:0:1"), 0, aStart, aEnd),
                        new PreparedGroups.Group(xid("cleave:1:7"), 0, bStart, bEnd));
        assertThat(PreparedGroups.pendingAt(List.of(f.bytes()), 0, end)).extracting(PreparedGroups.Group::xid)
                .containsExactly(xid("cleave:1:7"));
        assertThat(PreparedGroups.pendingAt(List.of(f.bytes()), 0, aEnd - 1)).as("a prepare not yet ended").isEmpty();
    }

    @Test
    void groupsCarryOverFilesAndAreCompletedInALaterFile() throws IOException {
        Binlog first = new Binlog();
        long start = first.gtid(64, false, "x1");
        long stop = first.xaPrepare();
        first.gtid(64, false, "x2");
        first.xaPrepare();
        Binlog second = new Binlog();
        second.event(QUERY, 10);
        second.gtid(128, true, "x2");
        second.event(XID, 8);
        long secondEnd = second.size();

        assertThat(PreparedGroups.pendingAt(List.of(first.bytes(), second.bytes()), 1, secondEnd))
                .containsExactly(new PreparedGroups.Group(xid("x1"), 0, start, stop));
        assertThat(PreparedGroups.pendingAt(List.of(first.bytes(), second.bytes()), 0, first.size()))
                .extracting(PreparedGroups.Group::xid).containsExactly(xid("x1"), xid("x2"));
    }

    @Test
    void aFileThatIsNoBinlogIsRefused() {
        assertThatThrownBy(() -> PreparedGroups.pendingAt(List.of("not a binlog".getBytes(StandardCharsets.UTF_8)), 0, 12))
                .hasMessageContaining("binlog header");
    }

    /** The key {@link PreparedGroups} gives an xid of format 1 whose gtrid is {@code gtrid} and bqual empty. */
    private static String xid(String gtrid) {
        return "1:" + gtrid.length() + ":" + java.util.HexFormat.of().formatHex(gtrid.getBytes(StandardCharsets.UTF_8));
    }

    /** A binlog file being written: the magic number, then events with 19-byte headers. */
    private static final class Binlog {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Binlog() {
            out.writeBytes(new byte[] {(byte) 0xfe, 'b', 'i', 'n'});
            event(15, 100); // a format description event
        }

        long size() {
            return out.size();
        }

        byte[] bytes() {
            return out.toByteArray();
        }

        /** An event of {@code type} with a body of {@code bodyLength} bytes; returns where it began. */
        long event(int type, int bodyLength) {
            return write(type, new byte[bodyLength]);
        }

        /** A GTID event with {@code flags} (and a commit id when {@code groupCommit}) naming {@code gtrid}. */
        long gtid(int flags, boolean groupCommit, String gtrid) {
            byte[] data = gtrid.getBytes(StandardCharsets.UTF_8);
            ByteBuffer b = ByteBuffer.allocate(13 + (groupCommit ? 8 : 0) + 6 + data.length).order(ByteOrder.LITTLE_ENDIAN);
            b.putLong(42).putInt(0).put((byte) (flags | (groupCommit ? 2 : 0)));
            if (groupCommit) {
                b.putLong(9);
            }
            b.putInt(1).put((byte) data.length).put((byte) 0).put(data);
            return write(162, b.array());
        }

        /** An XA_PREPARE event; returns where the group it ends ends. */
        long xaPrepare() {
            write(38, new byte[20]);
            return out.size();
        }

        private long write(int type, byte[] body) {
            long at = out.size();
            ByteBuffer h = ByteBuffer.allocate(19).order(ByteOrder.LITTLE_ENDIAN);
            h.putInt(0).put((byte) type).putInt(1).putInt(19 + body.length).putInt((int) at + 19 + body.length)
                    .putShort((short) 0);
            out.writeBytes(h.array());
            out.writeBytes(body);
            return at;
        }
    }
}
