package io.cleave.manager.host;

import com.sun.nio.file.ExtendedOpenOption;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/** Asks the filesystem itself whether it takes O_DIRECT: opens a file with it and writes one aligned block. */
public final class DirectIoCheck {

    private DirectIoCheck() {
    }

    /** Empty when files in {@code dir} (an existing directory) can be written with O_DIRECT, else why not. */
    public static Optional<String> probe(Path dir) {
        Path probe = null;
        try {
            probe = Files.createTempFile(dir, ".cleave-odirect-probe-", "");
            int block = (int) Math.max(4096, Files.getFileStore(dir).getBlockSize());
            try (FileChannel channel = FileChannel.open(probe, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT)) {
                ByteBuffer buffer = ByteBuffer.allocateDirect(block * 2).alignedSlice(block);
                buffer.limit(block);
                channel.write(buffer, 0);
            }
            return Optional.empty();
        } catch (IOException | UnsupportedOperationException e) {
            String type;
            try {
                type = Files.getFileStore(dir).type();
            } catch (IOException e2) {
                type = "unknown";
            }
            return Optional.of("the " + type + " filesystem under " + dir + " refuses O_DIRECT (" + e.getMessage() + ")");
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
}
