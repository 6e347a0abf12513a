package io.cleave.manager.home;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.StandardOpenOption;

/** At most one daemon (or init) per home: an OS file lock, released when the process dies. */
public final class DaemonLock implements AutoCloseable {

    private final FileChannel channel;
    private final FileLock lock;

    private DaemonLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** @throws HomeBusyException when another daemon holds the home */
    public static DaemonLock acquire(CleaveHome home) {
        try {
            FileChannel channel = FileChannel.open(home.lockFile(), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            FileLock lock;
            try {
                lock = channel.tryLock();
            } catch (OverlappingFileLockException e) {
                lock = null;
            }
            if (lock == null) {
                channel.close();
                String who = DaemonInfo.read(home).map(i -> " (pid " + i.pid() + ", admin port " + i.adminPort() + ")").orElse("");
                throw new HomeBusyException("another cleave daemon" + who + " is using " + home.root()
                        + ": stop it with 'cleave down --home " + home.root() + "' or use another --home");
            }
            return new DaemonLock(channel, lock);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock " + home.lockFile() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        try {
            lock.release();
            channel.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The home is in use by another daemon. */
    public static final class HomeBusyException extends RuntimeException {
        public HomeBusyException(String message) {
            super(message);
        }
    }
}
