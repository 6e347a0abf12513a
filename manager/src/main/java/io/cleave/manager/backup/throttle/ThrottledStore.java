package io.cleave.manager.backup.throttle;

import io.cleave.manager.backup.store.BackupStore;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A backup location whose writes are held to a {@link ByteRate} ({@code backup.max_rate_mb_s}, or
 * {@code cleave backup --max-rate}): each put waits its turn before it is written, so the backup's
 * writers together stay under the rate and the readers behind them slow down with them (they hand
 * chunks over through a bounded queue). Reads, listings and deletes are not held.
 */
public final class ThrottledStore implements BackupStore {

    private final BackupStore store;
    private final ByteRate rate;

    public ThrottledStore(BackupStore store, ByteRate rate) {
        this.store = store;
        this.rate = rate;
    }

    @Override
    public String describe() {
        return store.describe();
    }

    @Override
    public void open() throws IOException {
        store.open();
    }

    @Override
    public void put(String key, byte[] content) throws IOException {
        long wait = rate.reserve(content.length, System.nanoTime());
        if (wait > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("stopped while waiting for the backup's rate limit");
            }
        }
        store.put(key, content);
    }

    @Override
    public byte[] get(String key) throws IOException {
        return store.get(key);
    }

    @Override
    public List<String> list(String prefix) throws IOException {
        return store.list(prefix);
    }

    @Override
    public void deleteAll(String prefix) throws IOException {
        store.deleteAll(prefix);
    }

    @Override
    public void close() {
        store.close();
    }
}
