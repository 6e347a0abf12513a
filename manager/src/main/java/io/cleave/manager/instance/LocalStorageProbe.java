package io.cleave.manager.instance;

import com.sun.nio.file.ExtendedOpenOption;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/** Asks the real filesystem: st_dev for the device, an O_DIRECT open and aligned write for direct I/O. */
public final class LocalStorageProbe implements StorageProbe {

    @Override
    public String deviceOf(Path path) {
        Path existing = existingAncestor(path);
        try {
            return String.valueOf(Files.getAttribute(existing, "unix:dev"));
        } catch (IOException | UnsupportedOperationException e) {
            try {
                return Files.getFileStore(existing).name();
            } catch (IOException e2) {
                throw new UncheckedIOException(e2);
            }
        }
    }

    @Override
    public Optional<String> directIoUnsupported(Path dir) {
        Path probe = null;
        try {
            Files.createDirectories(dir);
            probe = Files.createTempFile(dir, ".odirect-probe-", "");
            int block = (int) Math.max(512, Files.getFileStore(dir).getBlockSize());
            try (FileChannel channel = FileChannel.open(probe, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT)) {
                ByteBuffer buffer = ByteBuffer.allocateDirect(block * 2).alignedSlice(block);
                buffer.limit(block);
                channel.write(buffer, 0);
            }
            return Optional.empty();
        } catch (IOException | UnsupportedOperationException e) {
            String store;
            try {
                store = Files.getFileStore(dir).type();
            } catch (IOException e2) {
                store = "unknown";
            }
            return Optional.of("the " + store + " filesystem under " + dir + " refuses O_DIRECT (" + e.getMessage() + ")");
        } finally {
            if (probe != null) {
                try {
                    Files.deleteIfExists(probe);
                } catch (IOException ignored) {
                    // a leftover probe file is harmless
                }
            }
        }
    }

    private static Path existingAncestor(Path path) {
        Path p = path.toAbsolutePath();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        return p == null ? Path.of("/") : p;
    }
}
