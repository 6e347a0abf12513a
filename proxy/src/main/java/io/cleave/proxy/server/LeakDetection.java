package io.cleave.proxy.server;

import io.netty.util.ResourceLeakDetector;

/**
 * Netty's buffer leak detector in the daemon. At its default level it samples one buffer in 128
 * and records a stack trace for each: under load that is a few hundred stack walks a second on
 * the event loop (about 1-2% of the proxy's CPU under TPC-C), for a report that only a bug
 * would produce. The daemon runs without it unless {@code -Dio.netty.leakDetection.level} asks
 * for a level; tests, which start the proxy in their own JVM, keep Netty's default.
 */
public final class LeakDetection {

    static final String LEVEL_PROPERTY = "io.netty.leakDetection.level";
    private static final String LEGACY_LEVEL_PROPERTY = "io.netty.leakDetectionLevel";

    private LeakDetection() {
    }

    /** Turns the detector off, unless a level was given on the command line. */
    public static void offUnlessAsked() {
        if (System.getProperty(LEVEL_PROPERTY) == null && System.getProperty(LEGACY_LEVEL_PROPERTY) == null) {
            ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.DISABLED);
        }
    }
}
