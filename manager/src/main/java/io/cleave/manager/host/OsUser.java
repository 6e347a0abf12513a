package io.cleave.manager.host;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.GroupPrincipal;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.UserPrincipal;
import java.nio.file.attribute.UserPrincipalLookupService;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The unprivileged OS user the shard servers run as when the daemon runs as root, so that a server
 * (and whatever an account with FILE makes it do) can touch no more of the host than its own files:
 * made with useradd when missing (a system user without a home or a login shell), and given the
 * directories the servers write (datadirs, the run directory with the sockets, the logs, the files
 * directory of secure_file_priv).
 */
public final class OsUser {

    private static final Logger log = LoggerFactory.getLogger(OsUser.class);

    private final String name;
    private final UserPrincipal user;
    private final GroupPrincipal group;

    private OsUser(String name, UserPrincipal user, GroupPrincipal group) {
        this.name = name;
        this.user = user;
        this.group = group;
    }

    /** The user {@code name}, made first when the host has none. */
    public static OsUser ensure(String name) {
        UserPrincipalLookupService lookup = Path.of("/").getFileSystem().getUserPrincipalLookupService();
        try {
            return new OsUser(name, lookup.lookupPrincipalByName(name), lookup.lookupPrincipalByGroupName(name));
        } catch (IOException missing) {
            create(name);
            try {
                return new OsUser(name, lookup.lookupPrincipalByName(name), lookup.lookupPrincipalByGroupName(name));
            } catch (IOException e) {
                throw new IllegalStateException("made the OS user " + name + " but cannot find it: " + e.getMessage(), e);
            }
        }
    }

    private static void create(String name) {
        List<String> command = List.of("useradd", "--system", "--user-group", "--no-create-home", "--home-dir",
                "/nonexistent", "--shell", "/usr/sbin/nologin", "--comment", "Cleave shard servers", name);
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(p.getInputStream().readAllBytes());
            if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
                throw new IllegalStateException("cannot make the OS user " + name + " the shards run as ('"
                        + String.join(" ", command) + "': " + output.trim() + "): make it yourself, or set server.os_user"
                        + " to an existing user");
            }
            log.info("made the OS user {} for the shard servers", name);
        } catch (IOException e) {
            throw new IllegalStateException("cannot run useradd to make the OS user " + name + " (" + e.getMessage()
                    + "): make it yourself, or set server.os_user to an existing user", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted making the OS user " + name, e);
        }
    }

    public String name() {
        return name;
    }

    /**
     * Gives {@code path} (created as a directory when missing) and everything under it to the user,
     * unless the path is its already (a tree handed over once stays so: a datadir is not walked at
     * every start).
     */
    public void own(Path path) {
        try {
            if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(path);
            }
            if (user.equals(Files.getOwner(path, LinkOption.NOFOLLOW_LINKS))
                    && (!Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS) || ownedThroughout(path))) {
                return;
            }
            try (Stream<Path> all = Files.walk(path)) {
                for (Path p : all.toList()) {
                    PosixFileAttributeView view = Files.getFileAttributeView(p, PosixFileAttributeView.class,
                            LinkOption.NOFOLLOW_LINKS);
                    view.setOwner(user);
                    view.setGroup(group);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot give " + path + " to the OS user " + name + ": " + e.getMessage(), e);
        }
    }

    /** Whether the entries right under {@code dir} are the user's too (a cheap look, not a walk). */
    private boolean ownedThroughout(Path dir) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : entries.toList()) {
                if (!user.equals(Files.getOwner(p, LinkOption.NOFOLLOW_LINKS))) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * Fails, naming the directory, unless the user can pass through every directory above
     * {@code path} (owned by it, or open to others for search); directories Cleave owns (the home's
     * root, {@code own}) are opened for search rather than refused.
     */
    public void mustReach(Path path, Path own) {
        Path absolute = path.toAbsolutePath().normalize();
        for (Path dir = absolute.getParent(); dir != null; dir = dir.getParent()) {
            try {
                if (user.equals(Files.getOwner(dir))) {
                    continue;
                }
                Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir);
                if (perms.contains(PosixFilePermission.OTHERS_EXECUTE)) {
                    continue;
                }
                if (dir.equals(own.toAbsolutePath().normalize())) {
                    perms.add(PosixFilePermission.OTHERS_EXECUTE);
                    Files.setPosixFilePermissions(dir, perms);
                    continue;
                }
                throw new IllegalStateException("the shards run as the OS user " + name + " (server.os_user), which cannot"
                        + " reach " + path + ": " + dir + " is closed to it; put the home or datadir_roots elsewhere"
                        + " (e.g. under /var/lib), or set server.os_user: root");
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read the permissions of " + dir + ": " + e.getMessage(), e);
            }
        }
    }
}
