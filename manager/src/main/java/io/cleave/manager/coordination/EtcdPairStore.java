package io.cleave.manager.coordination;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.cleave.manager.config.CoordinationConfig;
import io.etcd.jetcd.ByteSequence;
import io.etcd.jetcd.Client;
import io.etcd.jetcd.ClientBuilder;
import io.etcd.jetcd.KeyValue;
import io.etcd.jetcd.kv.GetResponse;
import io.etcd.jetcd.kv.TxnResponse;
import io.etcd.jetcd.op.Cmp;
import io.etcd.jetcd.op.CmpTarget;
import io.etcd.jetcd.op.Op;
import io.etcd.jetcd.options.GetOption;
import io.etcd.jetcd.options.PutOption;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A standby pair's two keys in etcd and the only ways they change: {@code /cleave/CLUSTER/epoch} (a number,
 * no lease) and {@code /cleave/CLUSTER/primary} (a {@link PrimaryClaim} on its holder's lease). Every change is
 * one transaction that compares first, so two homes racing for the primary get one winner.
 * <p>
 * Each call waits at most {@code timeout}: callers decide what an unreachable etcd means (a primary fences).
 * <p>
 * Over https URLs it speaks TLS ({@link EtcdSslContext}). A member that refuses TLS only leaves gRPC waiting, so
 * a failed call's message is completed with what {@link EtcdTlsDiagnosis} finds (untrusted or misnamed member
 * certificate, client certificate wanted or refused, the URL's scheme wrong).
 */
public final class EtcdPairStore implements PairStore {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final long DIAGNOSIS_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(5);

    private final Client client;
    private final ByteSequence epochKey;
    private final ByteSequence primaryKey;
    private final long timeoutMillis;
    /** Why TLS to the members fails (over http: that they speak it), found off the caller's thread after a call failed. */
    private final EtcdTlsDiagnosis diagnosis;
    private final ExecutorService diagnosing;
    private final AtomicBoolean diagnosisRunning = new AtomicBoolean();
    private volatile long lastDiagnosisNanos;
    /** The last diagnosis's finding; null when it found nothing, or a call succeeded since. */
    private volatile String tlsProblem;

    public EtcdPairStore(CoordinationConfig config, Duration timeout) {
        // No authority: jetcd then gives each member's address its own (HOST:PORT of its URL), and the TLS check
        // matches each member's certificate against the address it was reached at. One authority for all would
        // have to be a name every member's certificate carries.
        ClientBuilder builder = Client.builder().endpoints(config.etcd().toArray(String[]::new))
                .connectTimeout(timeout).retryMaxDuration(timeout);
        if (config.https()) {
            builder.sslContext(EtcdSslContext.of(config.tls()));
            this.diagnosis = new EtcdTlsDiagnosis(config.etcd(), config.tls());
        } else {
            this.diagnosis = EtcdTlsDiagnosis.ofPlainUrls(config.etcd());
        }
        this.diagnosing = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "etcd-tls-diagnosis");
            t.setDaemon(true);
            return t;
        });
        this.lastDiagnosisNanos = System.nanoTime() - DIAGNOSIS_INTERVAL_NANOS - 1; // the first failure diagnoses
        this.client = builder.build();
        String prefix = "/cleave/" + config.cluster() + "/";
        this.epochKey = bytes(prefix + "epoch");
        this.primaryKey = bytes(prefix + "primary");
        this.timeoutMillis = timeout.toMillis();
    }

    @Override
    public PairView read() throws EtcdUnavailable {
        TxnResponse r = await(client.getKVClient().txn()
                .Then(Op.get(epochKey, GetOption.DEFAULT), Op.get(primaryKey, GetOption.DEFAULT)).commit());
        List<GetResponse> gets = r.getGetResponses();
        long epoch = gets.get(0).getKvs().isEmpty() ? 0 : Long.parseLong(text(gets.get(0).getKvs().get(0)));
        Optional<PrimaryClaim> primary = gets.get(1).getKvs().isEmpty() ? Optional.empty()
                : Optional.of(claim(text(gets.get(1).getKvs().get(0))));
        return new PairView(epoch, primary);
    }

    @Override
    public long grantLease(Duration ttl) throws EtcdUnavailable {
        return await(client.getLeaseClient().grant(ttl.toSeconds())).getID();
    }

    @Override
    public OptionalLong renew(long lease) throws EtcdUnavailable {
        try {
            long ttl = await(client.getLeaseClient().keepAliveOnce(lease)).getTTL();
            return ttl > 0 ? OptionalLong.of(ttl) : OptionalLong.empty();
        } catch (EtcdUnavailable e) {
            if (String.valueOf(e.getMessage()).contains("requested lease not found")) {
                return OptionalLong.empty();
            }
            throw e;
        }
    }

    /** Three transactions, as etcd has no OR: a first claim ever, a free primary at this epoch, this very claim. */
    @Override
    public boolean claim(PrimaryClaim me, long lease) throws EtcdUnavailable {
        ByteSequence value = bytes(json(me));
        PutOption onLease = PutOption.builder().withLeaseId(lease).build();
        ByteSequence epoch = bytes(Long.toString(me.epoch()));
        if (await(client.getKVClient().txn()
                .If(new Cmp(epochKey, Cmp.Op.EQUAL, CmpTarget.version(0)))
                .Then(Op.put(epochKey, epoch, PutOption.DEFAULT), Op.put(primaryKey, value, onLease)).commit()).isSucceeded()) {
            return true;
        }
        if (await(client.getKVClient().txn()
                .If(new Cmp(epochKey, Cmp.Op.EQUAL, CmpTarget.value(epoch)),
                        new Cmp(primaryKey, Cmp.Op.EQUAL, CmpTarget.version(0)))
                .Then(Op.put(primaryKey, value, onLease)).commit()).isSucceeded()) {
            return true;
        }
        return await(client.getKVClient().txn()
                .If(new Cmp(epochKey, Cmp.Op.EQUAL, CmpTarget.value(epoch)),
                        new Cmp(primaryKey, Cmp.Op.EQUAL, CmpTarget.value(value)))
                .Then(Op.put(primaryKey, value, onLease)).commit()).isSucceeded();
    }

    @Override
    public boolean takeOver(long from, PrimaryClaim me, long lease) throws EtcdUnavailable {
        if (me.epoch() != from + 1) {
            throw new IllegalArgumentException("a takeover goes from epoch " + from + " to " + (from + 1) + ", not " + me.epoch());
        }
        return await(client.getKVClient().txn()
                .If(new Cmp(epochKey, Cmp.Op.EQUAL, CmpTarget.value(bytes(Long.toString(from)))),
                        new Cmp(primaryKey, Cmp.Op.EQUAL, CmpTarget.version(0)))
                .Then(Op.put(epochKey, bytes(Long.toString(me.epoch())), PutOption.DEFAULT),
                        Op.put(primaryKey, bytes(json(me)), PutOption.builder().withLeaseId(lease).build()))
                .commit()).isSucceeded();
    }

    @Override
    public boolean handOver(PrimaryClaim from, PrimaryClaim to, long lease) throws EtcdUnavailable {
        if (to.epoch() != from.epoch() + 1) {
            throw new IllegalArgumentException("a hand-over goes from epoch " + from.epoch() + " to " + (from.epoch() + 1)
                    + ", not " + to.epoch());
        }
        return await(client.getKVClient().txn()
                .If(new Cmp(epochKey, Cmp.Op.EQUAL, CmpTarget.value(bytes(Long.toString(from.epoch())))),
                        new Cmp(primaryKey, Cmp.Op.EQUAL, CmpTarget.value(bytes(json(from)))))
                .Then(Op.put(epochKey, bytes(Long.toString(to.epoch())), PutOption.DEFAULT),
                        Op.put(primaryKey, bytes(json(to)), PutOption.builder().withLeaseId(lease).build()))
                .commit()).isSucceeded();
    }

    @Override
    public void close() {
        client.close();
        diagnosing.shutdownNow();
    }

    private <T> T await(java.util.concurrent.CompletableFuture<T> future) throws EtcdUnavailable {
        try {
            T result = future.get(timeoutMillis, TimeUnit.MILLISECONDS);
            tlsProblem = null;
            return result;
        } catch (TimeoutException e) {
            future.cancel(true);
            throw new EtcdUnavailable(withTlsProblem("no answer from etcd within " + timeoutMillis + " ms"), e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new EtcdUnavailable(withTlsProblem(cause.getMessage() == null ? cause.toString() : cause.getMessage()),
                    cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new EtcdUnavailable("interrupted", e);
        }
    }

    /**
     * {@code failure}, with why TLS to the members fails when a diagnosis found it. A failed call starts a new
     * diagnosis at most every {@link #DIAGNOSIS_INTERVAL_NANOS}, in the background: a call never waits for one, so
     * the first failure may go unexplained and the next ones say why.
     */
    private String withTlsProblem(String failure) {
        long now = System.nanoTime();
        if (now - lastDiagnosisNanos > DIAGNOSIS_INTERVAL_NANOS && diagnosisRunning.compareAndSet(false, true)) {
            lastDiagnosisNanos = now;
            try {
                diagnosing.execute(() -> {
                    try {
                        tlsProblem = diagnosis.explain().orElse(null);
                    } catch (RuntimeException e) {
                        tlsProblem = null;
                    } finally {
                        diagnosisRunning.set(false);
                    }
                });
            } catch (java.util.concurrent.RejectedExecutionException closed) {
                diagnosisRunning.set(false);
            }
        }
        String problem = tlsProblem;
        return problem == null ? failure : failure + "; " + problem;
    }

    private static ByteSequence bytes(String s) {
        return ByteSequence.from(s, StandardCharsets.UTF_8);
    }

    private static String text(KeyValue kv) {
        return kv.getValue().toString(StandardCharsets.UTF_8);
    }

    private static String json(PrimaryClaim claim) {
        try {
            return JSON.writeValueAsString(claim);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static PrimaryClaim claim(String json) {
        try {
            return JSON.readValue(json, PrimaryClaim.class);
        } catch (IOException e) {
            throw new UncheckedIOException("the primary's key in etcd holds no claim: " + json, e);
        }
    }
}
