package io.cleave.manager.backup.store;

import io.cleave.manager.home.DurableFiles;

import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
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
        try {
            makeParents(file);
            DurableFiles.write(file, content); // its hidden sibling is never listed
        } catch (IOException e) {
            if (!Files.isDirectory(root)) {
                throw new NoSuchFileException(root.toString(), null, "the backup directory is gone");
            }
            throw full(e);
        }
    }

    /**
     * The directories between the root and {@code file}, one level at a time: a root that vanished
     * meanwhile fails it (createDirectories would make the root again, and a backup would go on into
     * an empty directory while its first chunks went with the old one).
     */
    private void makeParents(Path file) throws IOException {
        Path dir = root;
        for (Path name : root.relativize(file.getParent())) {
            dir = dir.resolve(name);
            try {
                Files.createDirectory(dir);
            } catch (java.nio.file.FileAlreadyExistsException e) {
                // made by an earlier chunk or another reader
            }
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
        // A backup may write or remove files meanwhile: one that vanishes during the walk is left out.
        Files.walkFileTree(dir, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path p, BasicFileAttributes attributes) {
                String key = root.relativize(p).toString().replace('\\', '/');
                if (attributes.isRegularFile() && key.startsWith(prefix) && !p.getFileName().toString().startsWith(".")) {
                    keys.add(key);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path p, IOException e) throws IOException {
                if (e instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                throw e;
            }
        });
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
