package io.cleave.proxy.backend;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** The text of a prepared statement as sent by the client: the key of per-connection caches. */
public final class PreparedSql {

    private final byte[] bytes;
    private final int hash;

    public PreparedSql(byte[] bytes) {
        this.bytes = bytes;
        this.hash = Arrays.hashCode(bytes);
    }

    public byte[] bytes() {
        return bytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PreparedSql other && other.hash == hash && Arrays.equals(other.bytes, bytes);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
