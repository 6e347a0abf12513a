package io.cleave.manager.coordination;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;

/** A pair's keys in memory, with etcd's compare-then-write rules; unreachable on demand; leases lapse when told. */
final class FakePairStore implements PairStore {

    long epoch;
    PrimaryClaim claim;
    long claimLease;
    boolean reachable = true;
    /** What takeOver answers when it would otherwise win: false models another home winning first. */
    boolean winsTakeOver = true;
    private long nextLease = 1;
    private final java.util.Set<Long> liveLeases = new java.util.HashSet<>();

    /** The claim's lease lapsed at etcd: the key goes with it. */
    void lapse() {
        liveLeases.remove(claimLease);
        claim = null;
    }

    @Override
    public PairView read() throws EtcdUnavailable {
        check();
        return new PairView(epoch, Optional.ofNullable(claim));
    }

    @Override
    public long grantLease(Duration ttl) throws EtcdUnavailable {
        check();
        liveLeases.add(nextLease);
        return nextLease++;
    }

    @Override
    public OptionalLong renew(long lease) throws EtcdUnavailable {
        check();
        return liveLeases.contains(lease) ? OptionalLong.of(4) : OptionalLong.empty();
    }

    @Override
    public boolean claim(PrimaryClaim me, long lease) throws EtcdUnavailable {
        check();
        if (epoch == 0 || (epoch == me.epoch() && (claim == null || claim.equals(me)))) {
            epoch = me.epoch();
            claim = me;
            claimLease = lease;
            return true;
        }
        return false;
    }

    @Override
    public boolean takeOver(long from, PrimaryClaim me, long lease) throws EtcdUnavailable {
        check();
        if (epoch != from || claim != null || !winsTakeOver) {
            return false;
        }
        epoch = me.epoch();
        claim = me;
        claimLease = lease;
        return true;
    }

    @Override
    public boolean handOver(PrimaryClaim from, PrimaryClaim to, long lease) throws EtcdUnavailable {
        check();
        if (epoch != from.epoch() || !from.equals(claim)) {
            return false;
        }
        epoch = to.epoch();
        claim = to;
        claimLease = lease;
        return true;
    }

    @Override
    public void close() {
    }

    private void check() throws EtcdUnavailable {
        if (!reachable) {
            throw new EtcdUnavailable("no answer from etcd within 1000 ms", null);
        }
    }
}
