package io.cleave.manager.backup.store;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A backup location on a filesystem. An object is written to a hidden sibling, fsynced and renamed
 * into place, so a crash leaves it whole or absent. The root is created once, by {@link #open()};
 * afterwards a root that disappeared (an unmounted disk, a deleted directory) fails every write
 * instead of being made again somewhere it should not be.
 */
public final class DirectoryStore implements BackupStore {

    private final Path root;

    public DirectoryStore(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    @Override
    public String describe() {
        return root.toString();
    }

    @Override
    public void open() throws IOException {
        if (!Files.isDirectory(root)) {
            Path parent = root.getParent();
            if (parent == null || !Files.isDirectory(parent)) {
                throw new NoSuchFileException(root.toString(), null, "neither the backup directory nor its parent exists");
            }
            Files.createDirectories(root);
        }
        if (!Files.isWritable(root)) {
            throw new IOException("the backup directory " + root + " is not writable");
        }
    }

    @Override
    public void put(String key, byte[] content) throws IOException {
        Path file = resolve(key);
        if (!Files.isDirectory(root)) {
            throw new NoSuchFileException(root.toString(), null, "the backup directory is gone");
        }
        Files.createDirectories(file.getParent());
        Path tmp = file.resolveSibling("." + file.getFileName() + ".part");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(content);
            while (buf.hasRemaining()) {
                ch.write(buf);
            }
            ch.force(true);
        } catch (IOException e) {
            Files.deleteIfExists(tmp);
            throw full(e);
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            // Some filesystems refuse to open a directory: the rename is atomic all the same.
        }
    }

    /** A write that failed for lack of space says so, with what is left, instead of the bare errno text. */
    private IOException full(IOException e) {
        String message = String.valueOf(e.getMessage());
        if (message.contains("No space left") || message.contains("Disk quota")) {
            long free = -1;
            try {
                FileStore store = Files.getFileStore(root);
                free = store.getUsableSpace();
            } catch (IOException ignored) {
                // the location may be gone as well
            }
            return new IOException("the backup location " + root + " is full (" + message + (free >= 0 ? ", "
                    + free + " bytes usable" : "") + ")", e);
        }
        return e;
    }

    @Override
    public byte[] get(String key) throws IOException {
        return Files.readAllBytes(resolve(key));
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        int cut = prefix.lastIndexOf('/');
        Path dir = cut < 0 ? root : resolve(prefix.substring(0, cut));
        List<String> keys = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            if (!Files.isDirectory(root)) {
                throw new NoSuchFileException(root.toString(), null, "the backup location is gone");
            }
            return keys;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.filter(Files::isRegularFile).toList()) {
                String key = root.relativize(p).toString().replace('\\', '/');
                if (key.startsWith(prefix) && !p.getFileName().toString().startsWith(".")) {
                    keys.add(key);
                }
            }
        }
        keys.sort(Comparator.naturalOrder());
        return keys;
    }

    @Override
    public void deleteAll(String prefix) throws IOException {
        Path dir = resolve(prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix);
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    private Path resolve(String key) {
        Path p = root.resolve(key).normalize();
        if (!p.startsWith(root)) {
            throw new IllegalArgumentException("key " + key + " leaves the backup directory");
        }
        return p;
    }

    @Override
    public void close() {
    }
}
