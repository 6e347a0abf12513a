package io.cleave.bench.chaos;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The bank read from every shard directly, each row counted on the shard that owns it: every
 * account on exactly one shard; each transfer the clients were told committed has both its
 * entries, each one they were told failed has none, each unknown one has both or none, and no
 * entry belongs to a transfer nobody tried; every account holds its opening balance plus its
 * entries and plus what the ledger says reached it; the total is the opening total.
 */
final class BankCheck {
    private final Bank bank;
    private final BankLedger ledger;

    BankCheck(Bank bank, BankLedger ledger) {
        this.bank = bank;
        this.ledger = ledger;
    }

    /** An entry row: its account and delta. */
    record EntryRow(BankAccount account, long delta) {
    }

    /** The bank's rows as the shards hold them, each counted on the shard that owns it. */
    record BankRows(Map<BankAccount, Long> balances, Map<Long, List<EntryRow>> entries, List<String> misplaced,
                    long ghosts) {
    }

    List<CheckResult> check(ShardMapView map, ShardAccess shards) throws SQLException {
        return judge(read(map, shards));
    }

    static BankRows read(ShardMapView map, ShardAccess shards) throws SQLException {
        Map<BankAccount, Long> balances = new HashMap<>();
        Map<Long, List<EntryRow>> entries = new HashMap<>();
        List<String> misplaced = new ArrayList<>();
        long ghosts = 0;
        for (int s = 0; s < map.shardCount(); s++) {
            try (Connection c = shards.open(s, Bank.DATABASE); Statement st = c.createStatement()) {
                try (ResultSet rs = st.executeQuery("SELECT branch, id, balance FROM accounts")) {
                    while (rs.next()) {
                        BankAccount a = new BankAccount(rs.getInt(1), rs.getInt(2));
                        switch (map.where("accounts", a.branch(), s)) {
                            case OWNER -> balances.put(a, rs.getLong(3));
                            case GHOST -> ghosts++;
                            case MISPLACED -> misplaced.add("account " + a + " on shard " + s + ", owned by shard "
                                + map.owner("branch", a.branch()));
                        }
                    }
                }
                try (ResultSet rs = st.executeQuery("SELECT branch, transfer, id, delta FROM entries")) {
                    while (rs.next()) {
                        int branch = rs.getInt(1);
                        switch (map.where("entries", branch, s)) {
                            case OWNER -> entries.computeIfAbsent(rs.getLong(2), t -> new ArrayList<>(2))
                                .add(new EntryRow(new BankAccount(branch, rs.getInt(3)), rs.getLong(4)));
                            case GHOST -> ghosts++;
                            case MISPLACED -> misplaced.add("entry of transfer " + rs.getLong(2) + " for account " + branch
                                + "/" + rs.getInt(3) + " on shard " + s + ", owned by shard " + map.owner("branch", branch));
                        }
                    }
                }
            }
        }
        return new BankRows(balances, entries, misplaced, ghosts);
    }

    /** The rows against the bank's accounts and the ledger. */
    List<CheckResult> judge(BankRows rows) {
        List<String> misplaced = new ArrayList<>(rows.misplaced());
        for (int branch : bank.branches()) {
            for (int id = 1; id <= bank.accountsPerBranch(); id++) {
                BankAccount a = new BankAccount(branch, id);
                if (!rows.balances().containsKey(a)) {
                    misplaced.add("account " + a + " is on no shard that owns it");
                }
            }
        }
        long entryRows = rows.entries().values().stream().mapToLong(List::size).sum();
        List<CheckResult> out = new ArrayList<>();
        out.add(CheckResult.of("bank placement", String.format(Locale.ROOT,
            "%,d accounts and %,d entries, each on the one shard that owns its branch (%,d ghost rows of moves under way"
                + " left out)", rows.balances().size(), entryRows, rows.ghosts()), misplaced));
        Map<BankAccount, Long> expected = new HashMap<>();
        out.add(ledger(rows.entries(), expected));
        out.add(balances(rows.balances(), rows.entries(), expected));
        return out;
    }

    /** Each ledger entry against the entries found; fills {@code expected} with each account's net change. */
    private CheckResult ledger(Map<Long, List<EntryRow>> entries, Map<BankAccount, Long> expected) {
        List<String> differences = new ArrayList<>();
        Map<Long, BankLedger.Entry> tried = new HashMap<>();
        long unknownApplied = 0;
        List<BankLedger.Entry> all = ledger.entries();
        for (BankLedger.Entry e : all) {
            BankTransfer t = e.transfer();
            tried.put(t.id(), e);
            List<EntryRow> found = entries.getOrDefault(t.id(), List.of());
            boolean whole = found.size() == 2 && found.contains(new EntryRow(t.from(), -t.amount()))
                && found.contains(new EntryRow(t.to(), t.amount()));
            boolean applied = switch (e.outcome()) {
                case ACKNOWLEDGED -> {
                    if (!whole) {
                        differences.add(String.format(Locale.ROOT, "transfer %d (%s -> %s, %d), acknowledged at %.1f s,"
                            + " is not in the data whole: entries found %s", t.id(), t.from(), t.to(), t.amount(),
                            e.atMillis() / 1000.0, found));
                    }
                    yield true;
                }
                case FAILED -> {
                    if (!found.isEmpty()) {
                        differences.add(String.format(Locale.ROOT, "transfer %d (%s -> %s), which failed before its COMMIT"
                            + " at %.1f s, left entries %s", t.id(), t.from(), t.to(), e.atMillis() / 1000.0, found));
                    }
                    yield false;
                }
                case UNKNOWN -> {
                    if (!found.isEmpty() && !whole) {
                        differences.add(String.format(Locale.ROOT, "transfer %d (%s -> %s), whose COMMIT got no answer at"
                            + " %.1f s, is applied in part: entries found %s", t.id(), t.from(), t.to(),
                            e.atMillis() / 1000.0, found));
                    }
                    yield whole;
                }
            };
            if (applied) {
                expected.merge(t.from(), -t.amount(), Long::sum);
                expected.merge(t.to(), t.amount(), Long::sum);
                if (e.outcome() == BankLedger.Outcome.UNKNOWN) {
                    unknownApplied++;
                }
            }
        }
        for (Map.Entry<Long, List<EntryRow>> e : entries.entrySet()) {
            if (!tried.containsKey(e.getKey())) {
                differences.add("entries " + e.getValue() + " belong to transfer " + e.getKey() + ", which no client tried");
            }
        }
        return CheckResult.of("bank ledger", String.format(Locale.ROOT, "%,d acknowledged transfers applied whole,"
                + " %,d failed ones absent, %,d whose COMMIT got no answer applied whole (%,d) or not at all",
            ledger.count(BankLedger.Outcome.ACKNOWLEDGED), ledger.count(BankLedger.Outcome.FAILED),
            ledger.count(BankLedger.Outcome.UNKNOWN), unknownApplied), differences);
    }

    private CheckResult balances(Map<BankAccount, Long> balances, Map<Long, List<EntryRow>> entries,
                                 Map<BankAccount, Long> expected) {
        Map<BankAccount, Long> fromEntries = new HashMap<>();
        for (List<EntryRow> rows : entries.values()) {
            for (EntryRow r : rows) {
                fromEntries.merge(r.account(), r.delta(), Long::sum);
            }
        }
        List<String> differences = new ArrayList<>();
        long total = 0;
        for (Map.Entry<BankAccount, Long> a : balances.entrySet()) {
            long balance = a.getValue();
            total += balance;
            long byEntries = Bank.OPENING_BALANCE + fromEntries.getOrDefault(a.getKey(), 0L);
            long byLedger = Bank.OPENING_BALANCE + expected.getOrDefault(a.getKey(), 0L);
            if (balance != byEntries || balance != byLedger) {
                differences.add(String.format(Locale.ROOT, "account %s holds %d; its entries make it %d, the ledger %d",
                    a.getKey(), balance, byEntries, byLedger));
            }
        }
        if (total != bank.total() && balances.size() == bank.accounts()) {
            differences.add(0, String.format(Locale.ROOT, "the balances add up to %,d, not the opening total %,d", total,
                bank.total()));
        }
        return CheckResult.of("bank balances", String.format(Locale.ROOT, "every account holds its opening balance plus"
            + " its entries and what the ledger says reached it; total %,d of %,d", total, bank.total()), differences);
    }
}
