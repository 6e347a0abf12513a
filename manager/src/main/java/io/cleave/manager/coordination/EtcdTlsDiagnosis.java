package io.cleave.manager.coordination;

import io.cleave.manager.config.EtcdTls;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * Says in words why etcd's members refuse TLS, which gRPC cannot: its calls only wait for a channel that never
 * becomes ready, and end in a bare timeout. This makes a TLS handshake of its own with each member, with the same
 * trust, client certificate and name check as the client's, and names the first thing that fails: a member's
 * certificate no trusted CA signed, one that does not name the address it was reached at, a member that wants a
 * client certificate or refuses this one, a member that speaks plain http. Over http URLs it only looks for a
 * member that speaks TLS, which a plain client cannot reach.
 */
final class EtcdTlsDiagnosis {

    /** How long one member may take to connect and to answer; a member that does not is not a TLS problem. */
    private static final int STEP_MILLIS = 500;

    private final List<String> urls;
    private final EtcdTls tls;
    /** The URLs are http: only whether a member speaks TLS is of interest, any certificate will do. */
    private final boolean plainUrls;
    private final X509Certificate[] clientChain;
    private final SSLContext context;
    private final RecordingTrustManager trust;

    /** For https URLs: the client's own trust and client certificate. */
    EtcdTlsDiagnosis(List<String> urls, EtcdTls tls) {
        this(urls, tls, false);
    }

    /** For http URLs: finds a member that speaks TLS only. */
    static EtcdTlsDiagnosis ofPlainUrls(List<String> urls) {
        return new EtcdTlsDiagnosis(urls, EtcdTls.NONE, true);
    }

    private EtcdTlsDiagnosis(List<String> urls, EtcdTls tls, boolean plainUrls) {
        this.urls = List.copyOf(urls);
        this.tls = tls;
        this.plainUrls = plainUrls;
        try {
            TrustManagerFactory trustFactory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            if (tls.caFile().isPresent()) {
                KeyStore cas = emptyStore();
                X509Certificate[] certs = EtcdSslContext.certificates(tls.caFile().get(), "coordination.ca_file");
                for (int i = 0; i < certs.length; i++) {
                    cas.setCertificateEntry("ca-" + i, certs[i]);
                }
                trustFactory.init(cas);
            } else {
                trustFactory.init((KeyStore) null);
            }
            X509ExtendedTrustManager delegate = Arrays.stream(trustFactory.getTrustManagers())
                    .filter(X509ExtendedTrustManager.class::isInstance).map(X509ExtendedTrustManager.class::cast)
                    .findFirst().orElseThrow();
            this.trust = new RecordingTrustManager(delegate, plainUrls);
            KeyManager[] keys = null;
            if (tls.presentsClientCertificate()) {
                clientChain = EtcdSslContext.certificates(tls.certFile().get(), "coordination.cert_file");
                KeyStore store = emptyStore();
                store.setKeyEntry("client", EtcdSslContext.privateKey(tls.keyFile().get()), new char[0], clientChain);
                KeyManagerFactory keyFactory = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
                keyFactory.init(store, new char[0]);
                keys = keyFactory.getKeyManagers();
            } else {
                clientChain = null;
            }
            this.context = SSLContext.getInstance("TLS");
            this.context.init(keys, new TrustManager[]{trust}, null);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("cannot set up TLS to etcd: " + e.getMessage(), e);
        }
    }

    /**
     * The first member's TLS problem, in words, e.g. {@code TLS to etcd fails: etcd member HOST:PORT: ...}; empty when
     * every member's handshake went through or none answered.
     */
    synchronized Optional<String> explain() {
        for (String url : urls) {
            Optional<String> problem = handshake(URI.create(url));
            if (problem.isPresent()) {
                return problem.map(p -> (plainUrls ? "" : "TLS to etcd fails: ") + p);
            }
        }
        return Optional.empty();
    }

    private Optional<String> handshake(URI url) {
        String member = "etcd member " + url.getHost() + ":" + url.getPort();
        trust.reset();
        try (Socket plain = new Socket()) {
            plain.connect(new InetSocketAddress(url.getHost(), url.getPort()), STEP_MILLIS);
            plain.setSoTimeout(STEP_MILLIS);
            try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(plain, url.getHost(),
                    url.getPort(), false)) {
                SSLParameters parameters = socket.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                parameters.setApplicationProtocols(new String[]{"h2"});
                socket.setSSLParameters(parameters);
                try {
                    socket.startHandshake();
                } catch (SSLException e) {
                    if (plainUrls) {
                        return trust.presented == null ? Optional.empty() : Optional.of(member + speaksTls());
                    }
                    return Optional.of(member + ": " + handshakeProblem(url, e));
                }
                if (plainUrls) {
                    return Optional.of(member + speaksTls());
                }
                // With TLS 1.3 a member refuses the client's certificate after the client's side of the handshake is
                // done: its alert is the first thing to read. A member that took it waits for gRPC's first frame.
                try {
                    socket.getInputStream().read();
                } catch (SocketTimeoutException fine) {
                    return Optional.empty();
                } catch (SSLException e) {
                    return Optional.of(member + ": " + (refusesClient(e) ? clientProblem(e)
                            : "it ended the TLS session: " + e.getMessage()));
                }
                return Optional.empty();
            }
        } catch (IOException e) {
            return Optional.empty(); // unreachable or slow: not a TLS matter, the caller's own words say it
        }
    }

    private String handshakeProblem(URI url, SSLException e) {
        if (trust.untrusted != null) {
            return "its certificate (" + subject(trust.presented) + ", issued by " + issuer(trust.presented)
                    + ") is not signed by a CA this daemon trusts (" + tls.caFile().map(p -> "coordination.ca_file " + p)
                    .orElse("the JVM's default trust: no coordination.ca_file") + ")";
        }
        if (trust.misnamed != null) {
            return "its certificate (" + subject(trust.presented) + ") does not name " + url.getHost()
                    + ", the address it was reached at: expected " + url.getHost() + " among its subject alternative"
                    + " names (" + trust.misnamed.getMessage() + ")";
        }
        String message = String.valueOf(e.getMessage());
        if (message.contains("plaintext") || message.contains("Unsupported or unrecognized SSL message")) {
            return "it speaks plain http, not TLS: expected http:// URLs, or TLS on etcd (--cert-file, --key-file)";
        }
        if (refusesClient(e)) {
            return clientProblem(e);
        }
        if (trust.presented == null && message.contains("terminated the handshake")) {
            // etcd's plain listener closes a connection that opens with a TLS hello, answering nothing.
            return "it closed the connection at the TLS handshake without presenting a certificate, as a member that"
                    + " speaks plain http does: expected http:// URLs then, or TLS on etcd (--cert-file, --key-file)";
        }
        return "the TLS handshake failed: " + message;
    }

    private static String speaksTls() {
        return " speaks TLS, and its URL is http: expected https:// URLs for every member (with"
                + " coordination.ca_file, and cert_file and key_file when etcd checks client certificates)";
    }

    /** The alerts a server sends for a client certificate it wants and did not get, or does not accept. */
    private static boolean refusesClient(SSLException e) {
        String message = String.valueOf(e.getMessage());
        return message.contains("Received fatal alert") && (message.contains("bad_certificate")
                || message.contains("certificate_required") || message.contains("unknown_ca")
                || message.contains("certificate_unknown") || message.contains("certificate_expired")
                || message.contains("unsupported_certificate") || message.contains("certificate_revoked")
                || message.contains("access_denied"));
    }

    private String clientProblem(SSLException e) {
        String message = String.valueOf(e.getMessage());
        if (clientChain == null) {
            return "it requires a client certificate (etcd's --client-cert-auth) and this daemon has none: expected"
                    + " coordination.cert_file and key_file (" + message + ")";
        }
        return "it refused this daemon's client certificate (" + subject(clientChain[0]) + ", issued by "
                + issuer(clientChain[0]) + " in coordination.cert_file " + tls.certFile().orElseThrow() + "): expected"
                + " one signed by the CA of etcd's --trusted-ca-file, for client authentication, not expired ("
                + message + ")";
    }

    private static String subject(X509Certificate cert) {
        return cert == null ? "no certificate" : cert.getSubjectX500Principal().getName();
    }

    private static String issuer(X509Certificate cert) {
        return cert == null ? "nobody" : cert.getIssuerX500Principal().getName();
    }

    private static KeyStore emptyStore() throws GeneralSecurityException, IOException {
        KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
        store.load(null, null);
        return store;
    }

    /** Trusts as its delegate does, noting what the member presented and whether its chain or its name failed. */
    private static final class RecordingTrustManager extends X509ExtendedTrustManager {
        private final X509ExtendedTrustManager delegate;
        /** Notes what a member presents and trusts it: for finding out whether it speaks TLS at all. */
        private final boolean acceptAll;
        private volatile X509Certificate presented;
        private volatile CertificateException untrusted;
        private volatile CertificateException misnamed;

        RecordingTrustManager(X509ExtendedTrustManager delegate, boolean acceptAll) {
            this.delegate = delegate;
            this.acceptAll = acceptAll;
        }

        void reset() {
            presented = null;
            untrusted = null;
            misnamed = null;
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            presented = chain.length == 0 ? null : chain[0];
            if (acceptAll) {
                return;
            }
            try {
                delegate.checkServerTrusted(chain, authType);
            } catch (CertificateException e) {
                untrusted = e;
                throw e;
            }
            try {
                delegate.checkServerTrusted(chain, authType, socket);
            } catch (CertificateException e) {
                misnamed = e;
                throw e;
            }
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            delegate.checkServerTrusted(chain, authType, engine);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            delegate.checkServerTrusted(chain, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) throws CertificateException {
            delegate.checkClientTrusted(chain, authType, socket);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) throws CertificateException {
            delegate.checkClientTrusted(chain, authType, engine);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            delegate.checkClientTrusted(chain, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return delegate.getAcceptedIssuers();
        }
    }
}
