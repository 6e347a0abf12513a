package io.cleave.proxy.frontend;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A statement on a table with global unique keys or its lookup, assembled from the proxy's own
 * text and the values of a statement's rows ({@link UniqueRows}: bytes in the client's character
 * set, as the client wrote them, so the shards read them as the client's statement).
 */
final class UniqueSql {

    private final UniqueRows u;
    private final ByteArrayOutputStream out = new ByteArrayOutputStream(128);

    UniqueSql(UniqueRows u, String start) {
        this.u = u;
        add(start);
    }

    UniqueSql add(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        out.write(b, 0, b.length);
        return this;
    }

    UniqueSql add(byte[] b) {
        out.write(b, 0, b.length);
        return this;
    }

    UniqueSql id(String name) {
        return add("`" + name.replace("`", "``") + "`");
    }

    /** {@code (c1 = v1 AND c2 = v2)} for row {@code r}'s value of key {@code x}. */
    UniqueSql eq(int x, int r, String qualifier) {
        List<String> columns = u.indexes.get(x).columns();
        add("(");
        for (int c = 0; c < columns.size(); c++) {
            add(c == 0 ? "" : " AND ");
            if (qualifier != null) {
                add(qualifier).add(".");
            }
            id(columns.get(c)).add(" = ").add(u.sql[x][r][c]);
        }
        return add(")");
    }

    byte[] bytes() {
        return out.toByteArray();
    }
}
