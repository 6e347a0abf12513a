package io.cleave.proxy.frontend;

import io.cleave.proxy.accounts.AccountDirectory;
import io.cleave.proxy.accounts.AccountRows;
import io.cleave.proxy.merge.TextRow;
import io.cleave.proxy.server.LoopResources;
import io.cleave.proxy.server.ProxyRuntime;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the accounts from a shard's grant tables again, as the shard account, after an account
 * statement: later logins are checked against what the tables hold now, and backend connections of
 * clients' accounts made before are not lent again.
 */
final class AccountReload {

    private static final Logger log = LoggerFactory.getLogger(AccountReload.class);

    private final ProxyRuntime runtime;
    private final LoopResources loop;

    AccountReload(ProxyRuntime runtime, LoopResources loop) {
        this.runtime = runtime;
        this.loop = loop;
    }

    void run(int shard, Runnable then) {
        byte[] sql = AccountRows.query(runtime.serverVersion()).getBytes(StandardCharsets.UTF_8);
        new MultiExchange(new SystemContext(loop), false, results -> {
            LegResult r = results.get(0);
            if (r.ok()) {
                List<List<String>> rows = new ArrayList<>(r.rows.size());
                for (TextRow row : r.rows) {
                    List<String> values = new ArrayList<>(row.columns());
                    for (int c = 0; c < row.columns(); c++) {
                        values.add(row.string(c));
                    }
                    rows.add(values);
                }
                AccountDirectory directory = AccountRows.directory(rows, runtime.accounts().shardAccountUser());
                runtime.accounts().directory(directory);
            } else {
                log.warn("could not read the accounts again from shard {}: {}; logins are checked against the ones"
                        + " read before", shard, r.errorPacket().message());
            }
            runtime.accounts().logins().accountsChanged();
            then.run();
        }).leg(shard, sql).start();
    }
}
