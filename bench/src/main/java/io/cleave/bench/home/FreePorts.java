package io.cleave.bench.home;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.ThreadLocalRandom;

/** Loopback ports nobody listens on, so benchmark homes never collide with each other or a real Cleave. */
final class FreePorts {
    private FreePorts() {
    }

    static int one() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The first of n consecutive free ports (shard i listens on base + i). */
    static int range(int n) {
        for (int attempt = 0; attempt < 200; attempt++) {
            int base = 20_000 + ThreadLocalRandom.current().nextInt(20_000);
            boolean free = true;
            for (int p = base; p < base + n && free; p++) {
                free = isFree(p);
            }
            if (free) {
                return base;
            }
        }
        throw new IllegalStateException("no " + n + " consecutive free loopback ports found");
    }

    private static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket()) {
            s.setReuseAddress(true);
            s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
            return true;
        } catch (IOException e) {
            return false;
        }
    }
}
