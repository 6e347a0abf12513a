package io.cleave.bench.crossshard;

import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The proxy's own count of ended transactions, when its /metrics has one:
 * {@code cleave_proxy_transactions_total} by kind (single_shard, cross_shard,
 * multi_shard_autocommit) and outcome. Cross-shard here means a client's transaction that reached
 * several shards; multi-shard autocommit writes are counted in the total but not as cross-shard.
 */
public record ProxyTransactions(long crossShard, long total) {
    static final String METRIC = "cleave_proxy_transactions_total";
    private static final Pattern LINE = Pattern.compile("^" + METRIC + "\\{([^}]*)}\\s+(\\S+)\\s*$");
    private static final Pattern KIND = Pattern.compile("(?:^|,)\\s*kind=\"([^\"]*)\"");

    /** The counters summed over outcomes; empty when the daemon does not export them. */
    public static Optional<ProxyTransactions> parse(String prometheusText) {
        boolean found = false;
        double cross = 0;
        double total = 0;
        for (String line : prometheusText.split("\n")) {
            Matcher m = LINE.matcher(line.strip());
            if (!m.matches()) {
                continue;
            }
            Matcher kind = KIND.matcher(m.group(1));
            if (!kind.find()) {
                continue;
            }
            double value = Double.parseDouble(m.group(2));
            found = true;
            total += value;
            if (kind.group(1).equals("cross_shard")) {
                cross += value;
            }
        }
        return found ? Optional.of(new ProxyTransactions(Math.round(cross), Math.round(total))) : Optional.empty();
    }

    public ProxyTransactions minus(ProxyTransactions before) {
        return new ProxyTransactions(crossShard - before.crossShard, total - before.total);
    }
}
