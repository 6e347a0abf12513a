package io.cleave.e2e.support;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * A deliberately small MySQL protocol client over a plain socket, for tests that must send what
 * no driver sends: unknown or malformed commands, COM_CHANGE_USER, COM_FIELD_LIST, raw packets.
 * Speaks mysql_native_password only (and empty passwords), without TLS.
 */
public final class RawMysqlClient implements AutoCloseable {

    public static final long LONG_PASSWORD = 1L;
    public static final long CONNECT_WITH_DB = 1L << 3;
    public static final long PROTOCOL_41 = 1L << 9;
    public static final long TRANSACTIONS = 1L << 13;
    public static final long SECURE_CONNECTION = 1L << 15;
    public static final long MULTI_STATEMENTS = 1L << 16;
    public static final long MULTI_RESULTS = 1L << 17;
    public static final long PS_MULTI_RESULTS = 1L << 18;
    public static final long PLUGIN_AUTH = 1L << 19;
    public static final long PLUGIN_AUTH_LENENC = 1L << 21;
    public static final long DEPRECATE_EOF = 1L << 24;
    /** What this client asks for (classic EOF packets, so results are easy to walk). */
    public static final long CLIENT_FLAGS = LONG_PASSWORD | CONNECT_WITH_DB | PROTOCOL_41 | TRANSACTIONS
            | SECURE_CONNECTION | MULTI_STATEMENTS | MULTI_RESULTS | PS_MULTI_RESULTS | PLUGIN_AUTH | PLUGIN_AUTH_LENENC;

    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    /** The handshake's scramble (zeros until it is read: a client that answers early signs against those). */
    private byte[] scramble = new byte[20];
    private String serverVersion;
    private long connectionId;
    private int sequence;

    private RawMysqlClient(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** Connects and reads the server's handshake. */
    public static RawMysqlClient connect(int port) throws IOException {
        return connect(port, null);
    }

    /**
     * Connects from {@code localAddress} (another loopback address such as 127.0.0.2, so the
     * proxy sees another client host; null: any) and reads the server's handshake.
     */
    public static RawMysqlClient connect(int port, String localAddress) throws IOException {
        RawMysqlClient c = open(port, localAddress);
        c.readHandshake();
        return c;
    }

    /** Connects without reading anything: the handshake is the caller's to read (or not). */
    public static RawMysqlClient open(int port, String localAddress) throws IOException {
        Socket s = new Socket();
        if (localAddress != null) {
            s.bind(new InetSocketAddress(localAddress, 0));
        }
        s.connect(new InetSocketAddress("127.0.0.1", port), 5_000);
        s.setSoTimeout(30_000);
        return new RawMysqlClient(s);
    }

    /** Connects and logs in with mysql_native_password; fails the test on anything but OK. */
    public static RawMysqlClient login(int port, String user, String password, String database) throws IOException {
        RawMysqlClient c = connect(port);
        byte[] reply = c.authenticate(user, password, database);
        if (!isOk(reply)) {
            c.close();
            throw new IOException("login failed: " + describe(reply));
        }
        return c;
    }

    public void readHandshake() throws IOException {
        byte[] p = readPacket();
        if (p[0] != 10) {
            throw new IOException("not a HandshakeV10: " + describe(p));
        }
        int pos = 1;
        int end = indexOf(p, pos, (byte) 0);
        serverVersion = new String(p, pos, end - pos, StandardCharsets.UTF_8);
        pos = end + 1;
        connectionId = readInt(p, pos, 4);
        pos += 4;
        byte[] part1 = Arrays.copyOfRange(p, pos, pos + 8);
        pos += 8 + 1 + 2 + 1 + 2 + 2;
        int authDataLength = p[pos] & 0xff;
        pos += 1 + 10;
        int part2Length = Math.max(13, authDataLength - 8) - 1;
        byte[] part2 = Arrays.copyOfRange(p, pos, pos + part2Length);
        scramble = new byte[20];
        System.arraycopy(part1, 0, scramble, 0, 8);
        System.arraycopy(part2, 0, scramble, 8, Math.min(12, part2.length));
    }

    /** Sends a HandshakeResponse41 and follows a mysql_native_password auth switch; returns the final packet. */
    public byte[] authenticate(String user, String password, String database) throws IOException {
        return authenticate(user, password, database, 45);
    }

    /** {@link #authenticate(String, String, String)} asking for the character set of {@code collationId}. */
    public byte[] authenticate(String user, String password, String database, int collationId) throws IOException {
        writePacket(1, handshakeResponsePayload(user, password, database, collationId));
        return followAuth(password);
    }

    /** Sends a HandshakeResponse41 (mysql_native_password) without reading the answer. */
    public void sendHandshakeResponse(String user, String password, String database) throws IOException {
        writePacket(1, handshakeResponsePayload(user, password, database, 45));
    }

    /** The payload of a HandshakeResponse41 (mysql_native_password, on the handshake's scramble). */
    public byte[] handshakeResponsePayload(String user, String password, String database, int collationId)
            throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        writeInt(b, CLIENT_FLAGS, 4);
        writeInt(b, 1 << 24, 4);
        b.write(collationId);
        b.write(new byte[23]);
        writeNul(b, user);
        byte[] token = nativeToken(password, scramble);
        b.write(token.length);
        b.write(token);
        writeNul(b, database == null ? "" : database);
        writeNul(b, "mysql_native_password");
        return b.toByteArray();
    }

    /** COM_CHANGE_USER with a mysql_native_password token on the connection's scramble; returns the final packet. */
    public byte[] changeUser(String user, String password, String database) throws IOException {
        writePacket(0, changeUserPayload(user, password, database));
        return followAuth(password);
    }

    /** The payload of a COM_CHANGE_USER (mysql_native_password, on the connection's scramble). */
    public byte[] changeUserPayload(String user, String password, String database) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(0x11);
        writeNul(b, user);
        byte[] token = nativeToken(password, scramble);
        b.write(token.length);
        b.write(token);
        writeNul(b, database == null ? "" : database);
        writeInt(b, 45, 2);
        writeNul(b, "mysql_native_password");
        return b.toByteArray();
    }

    /** Reads the answer to a handshake response, following a mysql_native_password auth switch. */
    public byte[] followAuth(String password) throws IOException {
        byte[] reply = readPacket();
        if ((reply[0] & 0xff) == 0xfe && reply.length > 1) {
            int end = indexOf(reply, 1, (byte) 0);
            String plugin = new String(reply, 1, end - 1, StandardCharsets.US_ASCII);
            if (!plugin.equals("mysql_native_password")) {
                throw new IOException("server switched to " + plugin + ", which this test client does not speak");
            }
            scramble = Arrays.copyOfRange(reply, end + 1, end + 21);
            writePacket(sequence, nativeToken(password, scramble));
            reply = readPacket();
        }
        return reply;
    }

    /** Sends one command packet (sequence 0) and returns the first response packet. */
    public byte[] command(byte[] payload) throws IOException {
        writePacket(0, payload);
        return readPacket();
    }

    /** COM_QUERY; returns the first response packet. */
    public byte[] query(String sql) throws IOException {
        return command(concat(new byte[] {0x03}, sql.getBytes(StandardCharsets.UTF_8)));
    }

    /** COM_QUERY that must return a result set: the rows as text values (column definitions skipped). */
    public java.util.List<java.util.List<String>> queryRows(String sql) throws IOException {
        byte[] first = query(sql);
        if (isErr(first) || isOk(first)) {
            throw new IOException("expected a result set for " + sql + ", got " + describe(first));
        }
        return readRows((int) first[0]);
    }

    /** After a column-count packet: skips the definitions and EOF, reads text rows until EOF. */
    public java.util.List<java.util.List<String>> readRows(int columns) throws IOException {
        for (int i = 0; i < columns; i++) {
            readPacket();
        }
        byte[] eof = readPacket();
        if (!isEof(eof)) {
            throw new IOException("expected EOF after column definitions, got " + describe(eof));
        }
        java.util.List<java.util.List<String>> rows = new java.util.ArrayList<>();
        while (true) {
            byte[] p = readPacket();
            if (isEof(p)) {
                return rows;
            }
            if (isErr(p)) {
                throw new IOException(describe(p));
            }
            java.util.List<String> row = new java.util.ArrayList<>();
            int[] pos = {0};
            for (int c = 0; c < columns; c++) {
                if ((p[pos[0]] & 0xff) == 0xfb) {
                    row.add(null);
                    pos[0]++;
                } else {
                    int len = (int) readLenenc(p, pos);
                    row.add(new String(p, pos[0], len, StandardCharsets.UTF_8));
                    pos[0] += len;
                }
            }
            rows.add(row);
        }
    }

    /** COM_STMT_PREPARE; returns the statement id after reading the parameter and column definitions. */
    public long prepare(String sql) throws IOException {
        byte[] ok = command(concat(new byte[] {0x16}, sql.getBytes(StandardCharsets.UTF_8)));
        if (!isOk(ok)) {
            throw new IOException("prepare of " + sql + " failed: " + describe(ok));
        }
        long id = readInt(ok, 1, 4);
        int columns = (int) readInt(ok, 5, 2);
        int params = (int) readInt(ok, 7, 2);
        for (int block : new int[] {params, columns}) {
            if (block > 0) {
                for (int i = 0; i <= block; i++) {
                    readPacket();
                }
            }
        }
        return id;
    }

    /** COM_STMT_SEND_LONG_DATA (no response). */
    public void sendLongData(long statement, int param, byte[] data) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(0x18);
        writeInt(b, statement, 4);
        writeInt(b, param, 2);
        b.write(data, 0, data.length);
        writePacket(0, b.toByteArray());
    }

    /**
     * COM_STMT_EXECUTE of a statement whose {@code params} parameters are all strings sent as long
     * data (so the packet carries only their types); returns the first response packet.
     */
    public byte[] executeWithLongData(long statement, int params) throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(0x17);
        writeInt(b, statement, 4);
        b.write(0);
        writeInt(b, 1, 4);
        if (params > 0) {
            b.write(new byte[(params + 7) / 8], 0, (params + 7) / 8);
            b.write(1);
            for (int i = 0; i < params; i++) {
                writeInt(b, 0xfd, 2);
            }
        }
        return command(b.toByteArray());
    }

    /** Reads the rest of a response whose first packet was {@code first}: result sets to their end. */
    public void skipResponse(byte[] first) throws IOException {
        byte[] p = first;
        while (!isOk(p) && !isErr(p)) {
            int[] pos = {0};
            int columns = (int) readLenenc(p, pos);
            for (int i = 0; i < columns; i++) {
                readPacket();
            }
            readPacket();
            do {
                p = readPacket();
            } while (!isEof(p) && !isErr(p));
            if (isErr(p) || (readInt(p, 3, 2) & MORE_RESULTS_EXIST) == 0) {
                return;
            }
            p = readPacket();
        }
        while (isOk(p) && (okStatus(p) & MORE_RESULTS_EXIST) != 0) {
            p = readPacket();
            if (!isOk(p) && !isErr(p)) {
                skipResponse(p);
                return;
            }
        }
    }

    private static final int MORE_RESULTS_EXIST = 8;

    private static int okStatus(byte[] ok) {
        int[] pos = {1};
        readLenenc(ok, pos);
        readLenenc(ok, pos);
        return (int) readInt(ok, pos[0], 2);
    }

    /** Writes raw bytes as they are (no framing): for malformed input. */
    public void writeRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    public void writePacket(int seq, byte[] payload) throws IOException {
        byte[] header = {(byte) payload.length, (byte) (payload.length >>> 8), (byte) (payload.length >>> 16), (byte) seq};
        out.write(header);
        out.write(payload);
        out.flush();
        sequence = (seq + 1) & 0xff;
    }

    public byte[] readPacket() throws IOException {
        byte[] header = new byte[4];
        in.readFully(header);
        int length = (header[0] & 0xff) | (header[1] & 0xff) << 8 | (header[2] & 0xff) << 16;
        sequence = ((header[3] & 0xff) + 1) & 0xff;
        byte[] payload = new byte[length];
        in.readFully(payload);
        return payload;
    }

    /** Whether the server closed the connection (reads until end of stream, ignoring any packets). */
    public boolean closedByServer() {
        try {
            while (true) {
                readPacket();
            }
        } catch (EOFException e) {
            return true;
        } catch (IOException e) {
            return e.getMessage() != null && e.getMessage().contains("reset");
        }
    }

    /** How long a read waits before it fails with a SocketTimeoutException. */
    public void readTimeout(int millis) throws IOException {
        socket.setSoTimeout(millis);
    }

    /** Stops sending (the server reads end of stream) while still reading what it sends. */
    public void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    /** Closes with a TCP reset instead of an orderly close, as a crashed client's kernel does. */
    public void abort() throws IOException {
        socket.setSoLinger(true, 0);
        socket.close();
    }

    public long connectionId() {
        return connectionId;
    }

    public String serverVersion() {
        return serverVersion;
    }

    public static boolean isOk(byte[] p) {
        return p.length > 0 && p[0] == 0;
    }

    public static boolean isErr(byte[] p) {
        return p.length > 0 && (p[0] & 0xff) == 0xff;
    }

    public static boolean isEof(byte[] p) {
        return p.length > 0 && p.length < 9 && (p[0] & 0xff) == 0xfe;
    }

    public static int errorCode(byte[] p) {
        return (p[1] & 0xff) | (p[2] & 0xff) << 8;
    }

    public static String sqlState(byte[] p) {
        return new String(p, 4, 5, StandardCharsets.US_ASCII);
    }

    public static String errorMessage(byte[] p) {
        return new String(p, 9, p.length - 9, StandardCharsets.UTF_8);
    }

    public static String describe(byte[] p) {
        if (isErr(p)) {
            return "ERR " + errorCode(p) + " (" + sqlState(p) + "): " + errorMessage(p);
        }
        return isOk(p) ? "OK" : "packet 0x" + Integer.toHexString(p.length == 0 ? -1 : p[0] & 0xff) + " of "
                + p.length + " bytes";
    }

    /** mysql_native_password: SHA1(pw) XOR SHA1(scramble + SHA1(SHA1(pw))); empty for an empty password. */
    public static byte[] nativeToken(String password, byte[] scramble) {
        if (password.isEmpty()) {
            return new byte[0];
        }
        byte[] stage1 = sha1(password.getBytes(StandardCharsets.UTF_8));
        byte[] stage2 = sha1(stage1);
        byte[] mix = sha1(concat(scramble, stage2));
        byte[] token = new byte[20];
        for (int i = 0; i < 20; i++) {
            token[i] = (byte) (stage1[i] ^ mix[i]);
        }
        return token;
    }

    public static byte[] concat(byte[] a, byte[] b) {
        byte[] r = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }

    private static byte[] sha1(byte[] input) {
        try {
            return MessageDigest.getInstance("SHA-1").digest(input);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long readLenenc(byte[] p, int[] pos) {
        int first = p[pos[0]++] & 0xff;
        if (first < 0xfb) {
            return first;
        }
        int bytes = first == 0xfc ? 2 : first == 0xfd ? 3 : 8;
        long v = readInt(p, pos[0], bytes);
        pos[0] += bytes;
        return v;
    }

    private static long readInt(byte[] p, int pos, int bytes) {
        long v = 0;
        for (int i = 0; i < bytes; i++) {
            v |= (long) (p[pos + i] & 0xff) << (8 * i);
        }
        return v;
    }

    private static void writeInt(ByteArrayOutputStream b, long v, int bytes) {
        for (int i = 0; i < bytes; i++) {
            b.write((int) (v >>> (8 * i)));
        }
    }

    private static void writeNul(ByteArrayOutputStream b, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        b.write(bytes, 0, bytes.length);
        b.write(0);
    }

    private static int indexOf(byte[] p, int from, byte value) {
        for (int i = from; i < p.length; i++) {
            if (p[i] == value) {
                return i;
            }
        }
        return p.length;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
