package io.cleave.manager.admin;

import io.cleave.proxy.server.InDoubtResolution;
import io.cleave.proxy.server.XaRecovery;

import java.util.List;

/**
 * Prepared XA branches of cross-shard transactions whose commit did not finish, as the admin API
 * shows and settles them. The daemon answers through its proxy, and throws an {@link AdminError}
 * (503) while the proxy is not running.
 */
public interface InDoubtTransactions {

    /** Every prepared branch on the reachable shards, with what recovery would do with it. */
    List<XaRecovery.InDoubtBranch> list();

    /** An operator's commit or rollback of one transaction on every shard where it is prepared. */
    InDoubtResolution resolve(String xid, boolean commit, boolean force);

    /** A recovery pass now: what it settled and what is still in doubt after it. */
    RecoveryReport recover();
}
