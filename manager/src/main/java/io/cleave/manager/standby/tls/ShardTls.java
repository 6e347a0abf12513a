package io.cleave.manager.standby.tls;

import io.cleave.manager.config.ReplicationTls;
import io.cleave.manager.home.CleaveHome;
import io.cleave.proxy.tls.SelfSignedCertificate;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.util.List;

/**
 * One home's side of the pair's replication TLS. The home keeps, in {@code state/tls}: its shards' certificate and
 * key (made at the first start that asks for TLS, for the names and addresses the shards are reached at), the
 * setting its shards last started with, and the other home's shard certificate once the pair exchanged it. The
 * servers read copies in the run directory, which their OS user owns ({@code state} is the daemon's alone).
 */
public final class ShardTls {

    private static final String OWN_CERTIFICATE = "shard-cert.pem";
    private static final String OWN_KEY = "shard-key.pem";
    private static final String OWN_NAMES = "shard-names";
    private static final String SETTING = "replication-tls";
    private static final String PEER_CERTIFICATE = "peer-shard-cert.pem";
    private static final String PEER_TRUST_STORE = "peer-shard-trust.p12";
    /** The trust store holds a public certificate only: its password protects nothing, Connector/J asks for one. */
    private static final String TRUST_STORE_PASSWORD = "cleave";

    private final CleaveHome home;

    private ShardTls(CleaveHome home) {
        this.home = home;
    }

    public static ShardTls of(CleaveHome home) {
        return new ShardTls(home);
    }

    private Path dir() {
        return home.state().resolve("tls");
    }

    /** Where the shards read the other home's certificate, as a replica's CA. */
    public Path peerCertificateForServers() {
        return home.run().resolve(PEER_CERTIFICATE);
    }

    /**
     * At every start, before the shards' my.cnf is read: with {@code setting} required, the home's certificate for
     * {@code names} (made again when the names changed; the other home then learns it at its next asking or switchover)
     * and its key go where the servers read them; the other home's certificate too, when known. Records the setting.
     *
     * @return whether a new certificate was made
     */
    public boolean install(ReplicationTls setting, List<String> names) {
        try {
            Files.createDirectories(dir());
            Files.setPosixFilePermissions(dir(), PosixFilePermissions.fromString("rwx------"));
            boolean made = false;
            if (setting == ReplicationTls.REQUIRED) {
                String wanted = String.join(",", names);
                Path namesFile = dir().resolve(OWN_NAMES);
                boolean current = Files.exists(dir().resolve(OWN_CERTIFICATE)) && Files.exists(dir().resolve(OWN_KEY))
                        && Files.exists(namesFile) && Files.readString(namesFile).trim().equals(wanted);
                if (!current) {
                    SelfSignedCertificate.create(dir().resolve(OWN_CERTIFICATE), dir().resolve(OWN_KEY), "cleave shard", names);
                    Files.writeString(namesFile, wanted + "\n");
                    made = true;
                }
                copy(dir().resolve(OWN_CERTIFICATE), home.shardTlsCertificate(), "rw-r--r--");
                copy(dir().resolve(OWN_KEY), home.shardTlsKey(), "rw-------");
            }
            if (Files.exists(dir().resolve(PEER_CERTIFICATE))) {
                copy(dir().resolve(PEER_CERTIFICATE), peerCertificateForServers(), "rw-r--r--");
            }
            Files.writeString(dir().resolve(SETTING), setting.configName() + "\n");
            return made;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the shards' TLS certificate in " + dir() + ": " + e.getMessage(), e);
        }
    }

    /** The setting this home's shards last started with ({@link #install}); off when never recorded. */
    public ReplicationTls setting() {
        try {
            Path file = dir().resolve(SETTING);
            return Files.exists(file) ? ReplicationTls.parse(Files.readString(file)).orElse(ReplicationTls.OFF)
                    : ReplicationTls.OFF;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The certificate this home's shards offer (PEM), for the other home to verify them with; null when they offer none. */
    public String certificate() {
        if (setting() != ReplicationTls.REQUIRED) {
            return null;
        }
        try {
            return Files.readString(dir().resolve(OWN_CERTIFICATE));
        } catch (IOException e) {
            throw new UncheckedIOException("the shards' TLS certificate is missing: " + e.getMessage(), e);
        }
    }

    /** How the replica's login is made on this home's shards: TLS only when the shards offer it. */
    public String accountRequirement() {
        return setting() == ReplicationTls.REQUIRED ? "REQUIRE SSL" : "REQUIRE NONE";
    }

    /**
     * How this home's replicas reach the other home's shards, which offer {@code peerCertificate} (PEM; null: none):
     * over TLS verifying that certificate, kept for the servers to read; refused when this home requires TLS and the
     * other's shards offer none.
     */
    public ReplicaLink toPrimary(String peerCertificate, ReplicationTls mine) {
        if (peerCertificate == null) {
            if (mine == ReplicationTls.REQUIRED) {
                throw new IllegalStateException("the primary's shards offer no TLS (its server.replication_tls is off) and"
                        + " this home's server.replication_tls is required: set it to required on the primary (its shards"
                        + " offer a certificate from their next start), or to off here");
            }
            return ReplicaLink.PLAIN;
        }
        trust(peerCertificate);
        return ReplicaLink.verifying(peerCertificateForServers());
    }

    /** As {@link #toPrimary(String, ReplicationTls)} with the setting this home's shards run with. */
    public ReplicaLink toPrimary(String peerCertificate) {
        return toPrimary(peerCertificate, setting());
    }

    /** Keeps the other home's certificate (when it differs from the one kept) where this home's servers read it. */
    private void trust(String pem) {
        parse(pem);
        try {
            Files.createDirectories(dir());
            Path kept = dir().resolve(PEER_CERTIFICATE);
            if (!Files.exists(kept) || !Files.readString(kept).equals(pem)) {
                Path tmp = dir().resolve(PEER_CERTIFICATE + ".tmp");
                Files.writeString(tmp, pem);
                Files.move(tmp, kept, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            if (!Files.exists(peerCertificateForServers()) || !Files.readString(peerCertificateForServers()).equals(pem)) {
                copy(kept, peerCertificateForServers(), "rw-r--r--");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot keep the other home's shard certificate: " + e.getMessage(), e);
        }
    }

    /**
     * The TLS options of a JDBC URL (MySQL Connector/J) to the other home's shards, which offer {@code peerCertificate}
     * (null: none): verified against that certificate (kept in a PKCS#12 trust store) and the host connected to, else in
     * clear.
     */
    public String jdbcOptions(String peerCertificate) {
        if (peerCertificate == null) {
            return "sslMode=DISABLED";
        }
        try {
            Files.createDirectories(dir());
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setCertificateEntry("peer-shards", parse(peerCertificate));
            Path file = dir().resolve(PEER_TRUST_STORE);
            Path tmp = dir().resolve(PEER_TRUST_STORE + ".tmp");
            try (OutputStream out = Files.newOutputStream(tmp)) {
                store.store(out, TRUST_STORE_PASSWORD.toCharArray());
            }
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return "sslMode=VERIFY_IDENTITY&trustCertificateKeyStoreUrl=" + file.toUri()
                    + "&trustCertificateKeyStoreType=PKCS12&trustCertificateKeyStorePassword=" + TRUST_STORE_PASSWORD;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot keep the other home's shard certificate as a trust store: "
                    + e.getMessage(), e);
        }
    }

    private static Certificate parse(String pem) {
        try {
            return CertificateFactory.getInstance("X.509").generateCertificate(
                    new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
        } catch (CertificateException e) {
            throw new IllegalArgumentException("the other home's shard certificate is not a PEM certificate: "
                    + e.getMessage(), e);
        }
    }

    /** Copies {@code from} to {@code to} with {@code permissions}, keeping the target's owner when it exists (the servers' user). */
    private static void copy(Path from, Path to, String permissions) throws IOException {
        Files.createDirectories(to.getParent());
        Path tmp = to.resolveSibling(to.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(permissions)));
        Files.write(tmp, Files.readAllBytes(from));
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString(permissions));
        Files.move(tmp, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }
}
