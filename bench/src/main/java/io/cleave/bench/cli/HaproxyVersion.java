package io.cleave.bench.cli;

import io.cleave.bench.exec.ChildProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** What {@code haproxy -v} says of itself, for the results' settings line. */
final class HaproxyVersion {

    private HaproxyVersion() {
    }

    /** e.g. "HAProxy 2.6.12-1+deb12u4"; the binary's path when it does not say. */
    static String of(Path haproxy) {
        ChildProcess.Result r = ChildProcess.run(List.of(haproxy.toString(), "-v"), Duration.ofSeconds(20));
        String first = r.output().strip().lines().findFirst().orElse("");
        String[] words = first.split("\\s+");
        return words.length >= 3 && words[0].equals("HAProxy") ? "HAProxy " + words[2] : haproxy.toString();
    }
}
