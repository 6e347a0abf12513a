package io.cleave.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BankCheckTest {
    /** One shard's range, one branch (1) of two accounts. */
    private final Bank bank = new Bank(1, 1, 2);
    private final BankAccount a = new BankAccount(1, 1);
    private final BankAccount b = new BankAccount(1, 2);
    private final BankLedger ledger = new BankLedger();
    private final Map<BankAccount, Long> balances = new HashMap<>(Map.of(a, Bank.OPENING_BALANCE, b, Bank.OPENING_BALANCE));
    private final Map<Long, List<BankCheck.EntryRow>> entries = new HashMap<>();
    private final List<String> misplaced = new ArrayList<>();

    /** Applies a transfer to the rows as a committed transaction would. */
    private BankTransfer applied(long id, long amount) {
        BankTransfer t = new BankTransfer(id, a, b, amount, true);
        balances.merge(a, -amount, Long::sum);
        balances.merge(b, amount, Long::sum);
        entries.put(id, new ArrayList<>(List.of(new BankCheck.EntryRow(a, -amount), new BankCheck.EntryRow(b, amount))));
        return t;
    }

    private Map<String, CheckResult> judge() {
        Map<String, CheckResult> out = new HashMap<>();
        for (CheckResult r : new BankCheck(bank, ledger).judge(new BankCheck.BankRows(balances, entries, misplaced, 0))) {
            out.put(r.name(), r);
        }
        return out;
    }

    @Test
    void acknowledgedAppliedFailedAbsentAndUnknownEitherWayHold() {
        ledger.record(applied(1, 10), BankLedger.Outcome.ACKNOWLEDGED, 100);
        ledger.record(new BankTransfer(2, b, a, 5, false), BankLedger.Outcome.FAILED, 200);
        ledger.record(applied(3, 7), BankLedger.Outcome.UNKNOWN, 300);
        ledger.record(new BankTransfer(4, b, a, 9, true), BankLedger.Outcome.UNKNOWN, 400);
        assertThat(judge().values()).allMatch(CheckResult::passed);
        assertThat(judge().get("bank ledger").summary()).contains("1 acknowledged", "1 failed", "2 whose COMMIT", "(1)");
        assertThat(judge().get("bank balances").summary()).contains("total 2,000 of 2,000");
    }

    @Test
    void anAcknowledgedTransferMissingFromTheDataFailsByTransferAndByAccount() {
        ledger.record(new BankTransfer(1, a, b, 10, true), BankLedger.Outcome.ACKNOWLEDGED, 1500);
        Map<String, CheckResult> r = judge();
        assertThat(r.get("bank ledger").passed()).isFalse();
        assertThat(r.get("bank ledger").differences()).singleElement().asString()
            .contains("transfer 1 (1/1 -> 1/2, 10), acknowledged at 1.5 s, is not in the data whole");
        // The balances agree with the (missing) entries but not with what the client was told.
        assertThat(r.get("bank balances").differences()).containsExactlyInAnyOrder(
            "account 1/1 holds 1000; its entries make it 1000, the ledger 990",
            "account 1/2 holds 1000; its entries make it 1000, the ledger 1010");
    }

    @Test
    void aTransferAppliedInPartOrAfterFailingOrNeverTriedFails() {
        ledger.record(applied(1, 10), BankLedger.Outcome.UNKNOWN, 100);
        entries.get(1L).remove(1);
        balances.merge(b, -10L, Long::sum);
        ledger.record(applied(2, 3), BankLedger.Outcome.FAILED, 200);
        applied(77, 1);
        Map<String, CheckResult> r = judge();
        assertThat(r.get("bank ledger").differences()).hasSize(3);
        assertThat(String.join("\n", r.get("bank ledger").differences())).contains(
            "transfer 1 (1/1 -> 1/2), whose COMMIT got no answer at 0.1 s, is applied in part",
            "transfer 2 (1/1 -> 1/2), which failed before its COMMIT at 0.2 s, left entries",
            "belong to transfer 77, which no client tried");
        assertThat(r.get("bank balances").passed()).isFalse();
    }

    @Test
    void anAccountOnNoShardOrABalanceOffItsEntriesFails() {
        balances.remove(b);
        balances.put(a, 999L);
        Map<String, CheckResult> r = judge();
        assertThat(r.get("bank placement").differences()).containsExactly("account 1/2 is on no shard that owns it");
        assertThat(r.get("bank balances").differences()).containsExactly(
            "account 1/1 holds 999; its entries make it 1000, the ledger 1000");
    }
}
