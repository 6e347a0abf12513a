package io.cleave.e2e.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/** Well-formed command payloads, built by hand as a client library would. */
final class Commands {

    static final byte QUIT = 0x01;
    static final byte INIT_DB = 0x02;
    static final byte QUERY = 0x03;
    static final byte FIELD_LIST = 0x04;
    static final byte STATISTICS = 0x09;
    static final byte PING = 0x0e;
    static final byte STMT_PREPARE = 0x16;
    static final byte STMT_EXECUTE = 0x17;
    static final byte STMT_SEND_LONG_DATA = 0x18;
    static final byte STMT_CLOSE = 0x19;
    static final byte STMT_RESET = 0x1a;
    static final byte SET_OPTION = 0x1b;
    static final byte STMT_FETCH = 0x1c;
    static final byte RESET_CONNECTION = 0x1f;

    private static final int TYPE_LONGLONG = 0x08;
    private static final int TYPE_VAR_STRING = 0xfd;
    private static final int CURSOR_TYPE_READ_ONLY = 1;

    private Commands() {
    }

    static byte[] simple(byte command) {
        return new byte[] {command};
    }

    static byte[] text(byte command, String text) {
        byte[] sql = text.getBytes(StandardCharsets.UTF_8);
        byte[] p = new byte[1 + sql.length];
        p[0] = command;
        System.arraycopy(sql, 0, p, 1, sql.length);
        return p;
    }

    static byte[] query(String sql) {
        return text(QUERY, sql);
    }

    /** COM_FIELD_LIST: the table name and an empty wildcard. */
    static byte[] fieldList(String table) {
        byte[] name = text(FIELD_LIST, table);
        byte[] p = new byte[name.length + 1];
        System.arraycopy(name, 0, p, 0, name.length);
        return p;
    }

    static byte[] setOption(boolean multiStatements) {
        return new byte[] {SET_OPTION, (byte) (multiStatements ? 0 : 1), 0};
    }

    static byte[] statement(byte command, long id) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(command);
        int4(b, id);
        return b.toByteArray();
    }

    static byte[] fetch(long id, int rows) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(STMT_FETCH);
        int4(b, id);
        int4(b, rows);
        return b.toByteArray();
    }

    static byte[] longData(long id, int param, byte[] data) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(STMT_SEND_LONG_DATA);
        int4(b, id);
        b.write(param);
        b.write(param >>> 8);
        b.write(data, 0, data.length);
        return b.toByteArray();
    }

    /**
     * COM_STMT_EXECUTE with new parameter types: Long values as LONGLONG, anything else as a
     * string, null as NULL; a parameter given as {@link #LONG_DATA} was sent with long data.
     */
    static byte[] execute(long id, boolean cursor, Object... params) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.write(STMT_EXECUTE);
        int4(b, id);
        b.write(cursor ? CURSOR_TYPE_READ_ONLY : 0);
        int4(b, 1);
        if (params.length > 0) {
            byte[] nulls = new byte[(params.length + 7) / 8];
            for (int i = 0; i < params.length; i++) {
                if (params[i] == null) {
                    nulls[i / 8] |= (byte) (1 << (i % 8));
                }
            }
            b.write(nulls, 0, nulls.length);
            b.write(1);
            for (Object param : params) {
                int type = param instanceof Long ? TYPE_LONGLONG : TYPE_VAR_STRING;
                b.write(type);
                b.write(0);
            }
            for (Object param : params) {
                if (param instanceof Long v) {
                    for (int i = 0; i < 8; i++) {
                        b.write((int) (v >>> (8 * i)));
                    }
                } else if (param != null && param != LONG_DATA) {
                    byte[] s = param.toString().getBytes(StandardCharsets.UTF_8);
                    lenenc(b, s.length);
                    b.write(s, 0, s.length);
                }
            }
        }
        return b.toByteArray();
    }

    /** Marks a parameter whose value went ahead with COM_STMT_SEND_LONG_DATA. */
    static final Object LONG_DATA = new Object();

    private static void int4(ByteArrayOutputStream b, long v) {
        for (int i = 0; i < 4; i++) {
            b.write((int) (v >>> (8 * i)));
        }
    }

    private static void lenenc(ByteArrayOutputStream b, int n) {
        if (n < 0xfb) {
            b.write(n);
        } else if (n < 0x10000) {
            b.write(0xfc);
            b.write(n);
            b.write(n >>> 8);
        } else {
            b.write(0xfd);
            b.write(n);
            b.write(n >>> 8);
            b.write(n >>> 16);
        }
    }
}
