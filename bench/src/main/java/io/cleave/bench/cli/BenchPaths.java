package io.cleave.bench.cli;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Where the checkout is, found from this jar (bench/target/cleave-bench.jar, or bench/target/classes in tests). */
final class BenchPaths {

    private BenchPaths() {
    }

    /** The bench/ directory of the checkout this code runs from, else ./bench. */
    static Path benchDir() {
        try {
            Path self = Path.of(BenchPaths.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path bench = self.getParent().getParent();
            if (Files.isRegularFile(bench.resolve("pom.xml")) && bench.getFileName().toString().equals("bench")) {
                return bench;
            }
        } catch (URISyntaxException | RuntimeException e) {
            // fall back to the working directory
        }
        return Path.of("bench");
    }

    /** The Cleave binary a command runs: the one given, else $CLEAVE_JAR, else {@link #cleaveJar()}. */
    static Path cleaveJar(Path given) {
        if (given != null) {
            return given;
        }
        String env = System.getenv("CLEAVE_JAR");
        if (env != null && !env.isBlank()) {
            return Path.of(env);
        }
        return cleaveJar();
    }

    /** manager/target/cleave.jar next to bench/. */
    static Path cleaveJar() {
        return benchDir().toAbsolutePath().resolveSibling("manager").resolve("target/cleave.jar");
    }
}
