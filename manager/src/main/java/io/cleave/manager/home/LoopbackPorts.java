package io.cleave.manager.home;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Loopback ports nobody listens on, for homes Cleave starts for its own work (a restore's loading shards) and
 * the homes the end-to-end tests start. The benchmark harness, which does not depend on the daemon, picks its
 * ports the same way (bench's FreePorts). They are picked outside the kernel's ephemeral range ({@code ip_local_port_range}, 32768-60999
 * by default), which outgoing connections take their local ports from: a port picked inside it can be handed to
 * a client socket between the pick and the server's bind, and the home then fails to start ("Address already in
 * use"). Each port is handed out once per process, from a random start, so two homes of one run never get the
 * same one and two processes rarely try the same ones.
 */
public final class LoopbackPorts {
    private static final int[] RANGE = usableRange(ephemeralRange());
    private static int next = -1;

    private LoopbackPorts() {
    }

    public static int one() {
        return range(1);
    }

    /** The first of n consecutive free ports (shard i listens on base + i). */
    public static synchronized int range(int n) {
        int low = RANGE[0];
        int high = RANGE[1];
        if (next < 0) {
            next = low + ThreadLocalRandom.current().nextInt(high - low);
        }
        for (int attempt = 0; attempt < 4000; attempt++) {
            if (next + n > high) {
                next = low;
            }
            int base = next;
            next += n;
            boolean free = true;
            for (int p = base; p < base + n && free; p++) {
                free = isFree(p);
            }
            if (free) {
                return base;
            }
        }
        throw new IllegalStateException("no " + n + " consecutive free loopback ports found in " + low + "-" + high);
    }

    /** Ports from 10000 up to the ephemeral range; above it if that starts too low; everything if it spans all. */
    public static int[] usableRange(int[] ephemeral) {
        if (ephemeral[0] - 1 >= 12_000) {
            return new int[] {10_000, ephemeral[0] - 1};
        }
        if (ephemeral[1] + 1 <= 63_000) {
            return new int[] {ephemeral[1] + 1, 65_535};
        }
        return new int[] {10_000, 65_535};
    }

    private static int[] ephemeralRange() {
        try {
            String[] parts = Files.readString(Path.of("/proc/sys/net/ipv4/ip_local_port_range")).trim().split("\\s+");
            return new int[] {Integer.parseInt(parts[0]), Integer.parseInt(parts[1])};
        } catch (IOException | RuntimeException e) {
            return new int[] {32_768, 60_999};
        }
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
