package io.cleave.manager.instance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The account the proxy and the control plane use on every shard: {@code cleave}@{@code localhost}
 * and {@code cleave}@{@code 127.0.0.1} with all privileges. Its password is the home's secret, so
 * the account is made per home at an instance's first start, through an init file, and
 * re-made whenever the secret changes; a marker in the datadir records which secret it has.
 */
public final class ShardAccount {

    public static final String USER = "cleave";
    private static final String MARKER = "cleave-account";

    private final String secret;

    public ShardAccount(String secret) {
        if (!secret.matches("[0-9A-Za-z]+")) {
            throw new IllegalArgumentException("the shard secret must be alphanumeric");
        }
        this.secret = secret;
    }

    public String secret() {
        return secret;
    }

    /** Idempotent SQL that makes the account right whatever state it is in. */
    public String initSql(Flavour flavour) {
        StringBuilder sql = new StringBuilder();
        // Account changes are local to each shard: keep them out of the binlog.
        sql.append("SET sql_log_bin = 0;\n");
        for (String host : new String[] {"localhost", "127.0.0.1"}) {
            String account = "'" + USER + "'@'" + host + "'";
            sql.append("CREATE USER IF NOT EXISTS ").append(account).append(" IDENTIFIED BY '").append(secret).append("';\n");
            sql.append("ALTER USER ").append(account).append(" IDENTIFIED BY '").append(secret).append("';\n");
            sql.append("GRANT ALL PRIVILEGES ON *.* TO ").append(account).append(" WITH GRANT OPTION;\n");
            if (flavour.isMysqlFamily()) {
                sql.append("GRANT XA_RECOVER_ADMIN ON *.* TO ").append(account).append(";\n");
            }
        }
        // A passwordless root must not be reachable over TCP; root@localhost (socket, 0700 run dir) stays.
        sql.append("DROP USER IF EXISTS 'root'@'127.0.0.1', 'root'@'::1';\n");
        return sql.toString();
    }

    /** True when the account in this datadir was made with the current secret. */
    public boolean isProvisioned(Path datadir) {
        try {
            Path marker = datadir.resolve(MARKER);
            return Files.isRegularFile(marker) && Files.readString(marker, StandardCharsets.UTF_8).trim().equals(fingerprint());
        } catch (IOException e) {
            return false;
        }
    }

    public void markProvisioned(Path datadir) {
        try {
            Files.writeString(datadir.resolve(MARKER), fingerprint() + "\n", StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the account marker in " + datadir, e);
        }
    }

    private String fingerprint() {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
