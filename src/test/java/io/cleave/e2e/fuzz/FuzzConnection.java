package io.cleave.e2e.fuzz;

import io.cleave.e2e.support.RawMysqlClient;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One fuzzed client connection: sends packets (counted), reads responses packet by packet, and
 * remembers what it needs to judge how the connection ended: whether the proxy closed it, the
 * last packet the proxy sent, and whether the client itself asked to end (COM_QUIT, end of
 * stream). Keeps a short transcript for failure messages.
 */
final class FuzzConnection implements AutoCloseable {

    /** What the client waits for after a command it built itself. */
    enum Expect {
        /** No response (COM_STMT_SEND_LONG_DATA, COM_STMT_CLOSE). */
        NOTHING,
        /** OK/ERR, or result sets (text or binary) until the last one ends. */
        RESULT,
        /** STMT_PREPARE_OK and its definitions, or ERR. */
        PREPARE,
        /** Rows of a cursor until EOF, or ERR. */
        ROWS,
        /** COM_FIELD_LIST: column definitions until EOF, or ERR. */
        FIELDS,
        /** COM_STATISTICS: one text packet. */
        ONE_PACKET
    }

    /** The proxy owes an answer to a well-formed command at most this long (lock waits, a busy pool). */
    static final int ANSWER_MILLIS = 20_000;
    /** After a mutated packet the answer may never come: this much silence ends the wait. */
    static final int SILENCE_MILLIS = 400;

    private static final int SERVER_MORE_RESULTS = 8;
    private static final int SERVER_CURSOR_EXISTS = 0x40;

    private final RawMysqlClient client;
    private final AtomicLong packets;
    private final Deque<String> transcript = new ArrayDeque<>();
    private byte[] lastReceived;
    private boolean serverClosed;
    private boolean clientEnded;
    private boolean tlsAsked;
    private boolean reset;

    FuzzConnection(RawMysqlClient client, AtomicLong packets) {
        this.client = client;
        this.packets = packets;
    }

    RawMysqlClient client() {
        return client;
    }

    boolean serverClosed() {
        return serverClosed;
    }

    byte[] lastReceived() {
        return lastReceived;
    }

    /** Sends one framed packet. A COM_QUIT (or a mutation that reads as one) lets the proxy close silently. */
    void send(int sequence, byte[] payload) throws IOException {
        note("-> seq " + sequence + " " + show(payload));
        packets.incrementAndGet();
        if (sequence == 0 && payload.length > 0 && payload[0] == 0x01) {
            clientEnded = true;
        }
        if (payload.length == 32 && (payload[1] & 0x08) != 0) {
            // An SSLRequest: the proxy turns to TLS, and ends a failed TLS handshake with a TLS alert.
            tlsAsked = true;
        }
        try {
            client.writePacket(sequence, payload);
        } catch (SocketException e) {
            // The proxy closed first (and may have said why): reading tells.
            note("   write failed: " + e.getMessage());
        }
    }

    /** Sends bytes as they are, framing and all (counted as one packet). */
    void sendRaw(byte[] bytes) throws IOException {
        note("-> raw " + show(bytes));
        packets.incrementAndGet();
        if (bytes.length >= 8 && bytes[0] == 32 && bytes[1] == 0 && bytes[2] == 0 && (bytes[5] & 0x08) != 0) {
            tlsAsked = true;
        }
        try {
            client.writeRaw(bytes);
        } catch (SocketException e) {
            note("   write failed: " + e.getMessage());
        }
    }

    /**
     * Reads the response to a well-formed command. Returns its first packet, or null when the
     * proxy closed the connection instead.
     *
     * @throws Stalled when the proxy neither answered nor closed within {@link #ANSWER_MILLIS}
     */
    byte[] read(Expect expect) throws IOException {
        if (expect == Expect.NOTHING || serverClosed) {
            return null;
        }
        byte[] first = next(ANSWER_MILLIS);
        if (first == null) {
            return null;
        }
        switch (expect) {
            case ONE_PACKET:
                return first;
            case PREPARE:
                if (RawMysqlClient.isOk(first) && first.length >= 12) {
                    int columns = u16(first, 5);
                    int params = u16(first, 7);
                    untilEof(params > 0 ? params + 1 : 0);
                    untilEof(columns > 0 ? columns + 1 : 0);
                }
                return first;
            case ROWS:
            case FIELDS:
                byte[] p = first;
                while (p != null && !RawMysqlClient.isEof(p) && !RawMysqlClient.isErr(p)) {
                    p = next(ANSWER_MILLIS);
                }
                return first;
            default:
                readResults(first);
                return first;
        }
    }

    private void readResults(byte[] first) throws IOException {
        byte[] p = first;
        while (p != null) {
            if (RawMysqlClient.isErr(p)) {
                return;
            }
            if (RawMysqlClient.isOk(p)) {
                if ((okStatus(p) & SERVER_MORE_RESULTS) == 0) {
                    return;
                }
                p = next(ANSWER_MILLIS);
                continue;
            }
            int columns = (int) lenenc(p, new int[] {0});
            for (int i = 0; i < columns && p != null; i++) {
                p = next(ANSWER_MILLIS);
            }
            byte[] eof = next(ANSWER_MILLIS);
            if (eof == null || !RawMysqlClient.isEof(eof) || (eofStatus(eof) & SERVER_CURSOR_EXISTS) != 0) {
                // A cursor was opened: rows come with COM_STMT_FETCH.
                return;
            }
            do {
                p = next(ANSWER_MILLIS);
            } while (p != null && !RawMysqlClient.isEof(p) && !RawMysqlClient.isErr(p));
            if (p == null || RawMysqlClient.isErr(p) || (eofStatus(p) & SERVER_MORE_RESULTS) == 0) {
                return;
            }
            p = next(ANSWER_MILLIS);
        }
    }

    private void untilEof(int packets) throws IOException {
        for (int i = 0; i < packets && !serverClosed; i++) {
            next(ANSWER_MILLIS);
        }
    }

    /** After a packet whose answer cannot be predicted: reads whatever comes until a pause or the close. */
    void drain() throws IOException {
        while (!serverClosed) {
            try {
                if (next(SILENCE_MILLIS) == null) {
                    return;
                }
            } catch (Stalled quiet) {
                return;
            }
        }
    }

    /** Reads the first packet of the proxy's next answer, however long it takes (up to {@link #ANSWER_MILLIS}). */
    byte[] next() throws IOException {
        return next(ANSWER_MILLIS);
    }

    private byte[] next(int timeoutMillis) throws IOException {
        if (serverClosed) {
            return null;
        }
        client.readTimeout(timeoutMillis);
        try {
            byte[] p = client.readPacket();
            lastReceived = p;
            note("<- " + describe(p));
            return p;
        } catch (EOFException e) {
            return closed("closed");
        } catch (SocketTimeoutException e) {
            throw new Stalled("no packet from the proxy within " + timeoutMillis + " ms");
        } catch (SocketException e) {
            // A reset: the proxy closed while bytes of ours were still unread, and TCP may then
            // drop what it sent last (its error packet) before this side reads it.
            reset = true;
            return closed("reset (" + e.getMessage() + ")");
        }
    }

    private byte[] closed(String how) {
        serverClosed = true;
        note("<- " + how);
        return null;
    }

    /**
     * The client ends the connection with COM_QUIT or by ending its stream: the proxy must answer
     * what is pending and close within {@link #ANSWER_MILLIS}.
     */
    void endAndAwaitClose(boolean quit) throws IOException {
        if (quit) {
            send(0, new byte[] {0x01});
        } else {
            clientEnded = true;
            note("-> end of stream");
            client.shutdownOutput();
        }
        while (!serverClosed) {
            next(ANSWER_MILLIS);
        }
    }

    /**
     * What is wrong with how the proxy ended this connection, or null: a connection the proxy
     * closed on its own must have been told why with an error packet (unless the client asked to
     * end, turned to TLS, where the proxy's last word is a TLS alert, or got a reset, which may
     * have dropped that packet).
     */
    String badEnding() {
        if (!serverClosed || clientEnded || tlsAsked || reset) {
            return null;
        }
        if (lastReceived == null || !RawMysqlClient.isErr(lastReceived)) {
            return "the proxy closed the connection without an error packet (last packet: "
                    + (lastReceived == null ? "none" : describe(lastReceived)) + ")";
        }
        return null;
    }

    String transcript() {
        return String.join("\n    ", transcript);
    }

    void note(String line) {
        transcript.addLast(line.length() > 160 ? line.substring(0, 160) + "..." : line);
        if (transcript.size() > 40) {
            transcript.removeFirst();
        }
    }

    @Override
    public void close() throws IOException {
        client.close();
    }

    void abort() throws IOException {
        note("-> reset");
        client.abort();
    }

    static String describe(byte[] p) {
        if (RawMysqlClient.isErr(p) && p.length >= 9) {
            return RawMysqlClient.describe(p);
        }
        return RawMysqlClient.isOk(p) ? "OK" : RawMysqlClient.isEof(p) ? "EOF" : show(p);
    }

    private static String show(byte[] p) {
        int n = Math.min(p.length, 24);
        return p.length + " bytes " + HexFormat.of().formatHex(p, 0, n) + (n < p.length ? ".." : "");
    }

    private static int u16(byte[] p, int at) {
        return (p[at] & 0xff) | (p[at + 1] & 0xff) << 8;
    }

    private static int eofStatus(byte[] eof) {
        return eof.length >= 5 ? u16(eof, 3) : 0;
    }

    private static int okStatus(byte[] ok) {
        int[] pos = {1};
        lenenc(ok, pos);
        lenenc(ok, pos);
        return pos[0] + 2 <= ok.length ? u16(ok, pos[0]) : 0;
    }

    private static long lenenc(byte[] p, int[] pos) {
        if (pos[0] >= p.length) {
            return 0;
        }
        int first = p[pos[0]++] & 0xff;
        if (first < 0xfb) {
            return first;
        }
        int bytes = first == 0xfc ? 2 : first == 0xfd ? 3 : 8;
        long v = 0;
        for (int i = 0; i < bytes && pos[0] < p.length; i++) {
            v |= (long) (p[pos[0]++] & 0xff) << (8 * i);
        }
        return v;
    }

    /** The proxy neither answered nor closed in time. */
    static final class Stalled extends IOException {
        Stalled(String message) {
            super(message);
        }
    }
}
