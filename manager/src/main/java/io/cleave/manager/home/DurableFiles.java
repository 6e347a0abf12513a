package io.cleave.manager.home;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Replaces a file so that after a crash it holds either the old or the new content, never a mix:
 * write a hidden sibling, fsync it, rename it over the file, fsync the directory. A write that fails
 * leaves no sibling behind. Each write has a sibling of its own: two writers sharing one would each
 * truncate the other's, and a reader could then find the file empty (a standby's state file was read
 * so while two threads saved it).
 */
public final class DurableFiles {

    private static final java.util.concurrent.atomic.AtomicLong SIBLINGS = new java.util.concurrent.atomic.AtomicLong();

    private DurableFiles() {
    }

    public static void write(Path file, byte[] content) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + "." + SIBLINGS.incrementAndGet() + "-"
                + ProcessHandle.current().pid() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(content);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        } catch (IOException e) {
            Files.deleteIfExists(tmp);
            throw e;
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            // Some filesystems refuse to open a directory: the rename is still atomic there.
        }
    }
}
