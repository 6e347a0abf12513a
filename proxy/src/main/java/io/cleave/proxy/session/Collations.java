package io.cleave.proxy.session;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * The collation ids a handshake can carry (one byte), as MariaDB and MySQL number them
 * ({@code collations.tsv}). An id outside the table is unknown: the caller must not guess a
 * character set for it (the client's bytes would be read in the wrong one).
 */
public final class Collations {

    private static final Map<Integer, Charset> BY_ID = load();

    private Collations() {
    }

    private static Map<Integer, Charset> load() {
        Map<Integer, Charset> out = new HashMap<>();
        try (InputStream in = Collations.class.getResourceAsStream("collations.tsv");
             BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] f = line.split("\t");
                out.put(Integer.parseInt(f[0]), new Charset(f[1], f[2]));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return Map.copyOf(out);
    }

    /** The charset for a handshake collation id, or null when unknown. */
    public static Charset byId(int id) {
        return BY_ID.get(id);
    }
}
