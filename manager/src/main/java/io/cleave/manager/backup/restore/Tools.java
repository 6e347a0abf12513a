package io.cleave.manager.backup.restore;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Finds the server's own client tools: beside the server binary, in its distribution's bin/, else on PATH. */
public final class Tools {

    private Tools() {
    }

    static Path find(Path server, String pathVariable, String... names) {
        return locate(server, pathVariable, names).orElseThrow(() -> new IllegalStateException("no "
                + String.join(" or ", names) + " beside " + server + " or on PATH: point-in-time recovery replays"
                + " archived binlogs with it (Debian: apt-get install mariadb-client)"));
    }

    /** The first of {@code names} found beside {@code server}, in its distribution's bin/, or on {@code pathVariable}. */
    public static Optional<Path> locate(Path server, String pathVariable, String... names) {
        List<Path> places = new ArrayList<>();
        if (server != null && server.getParent() != null) {
            places.add(server.getParent());
            if (server.getParent().getParent() != null) {
                places.add(server.getParent().getParent().resolve("bin"));
            }
        }
        for (String dir : (pathVariable == null ? "" : pathVariable).split(":")) {
            if (!dir.isBlank()) {
                places.add(Path.of(dir));
            }
        }
        for (String name : names) {
            for (Path dir : places) {
                Path p = dir.resolve(name);
                if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                    return Optional.of(p);
                }
            }
        }
        return Optional.empty();
    }
}
