package io.cleave.manager.instance;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** The last lines of a log file, read from its end so a large error log costs nothing. */
public final class LogTail {

    private static final int MAX_BYTES = 64 * 1024;

    private LogTail() {
    }

    public static String lastLines(Path file, int lines) {
        if (!Files.isRegularFile(file)) {
            return "(" + file + " does not exist)";
        }
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r")) {
            long length = raf.length();
            int size = (int) Math.min(length, MAX_BYTES);
            byte[] buf = new byte[size];
            raf.seek(length - size);
            raf.readFully(buf);
            List<String> all = Arrays.asList(new String(buf, StandardCharsets.UTF_8).split("\n"));
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size())).stripTrailing();
        } catch (IOException e) {
            return "(cannot read " + file + ": " + e.getMessage() + ")";
        }
    }
}
