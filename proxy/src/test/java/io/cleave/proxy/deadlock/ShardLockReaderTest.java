package io.cleave.proxy.deadlock;

import io.cleave.proxy.server.ShardAdmin;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ShardLockReaderTest {

    @Test
    void rowsBecomeWaitsAndTransactionsByServerThread() {
        List<ShardAdmin.Row> waits = List.of(row("6", "5", "X", "RECORD", "`d`.`t`", "PRIMARY"),
                row("7", "5", null, null, null, null));
        List<ShardAdmin.Row> transactions = List.of(row("6", "24", "4", "update d.t set v=2 where id=1", "13"),
                row("5", "23", "3", null, null), row("0", "421", "2", null, null));

        ShardLocks locks = ShardLockReader.parse(2, waits, transactions);

        assertThat(locks.shard()).isEqualTo(2);
        assertThat(locks.waits()).containsExactly(
                new ShardLocks.LockWait(6, 5, "X record lock on `d`.`t` index PRIMARY"),
                new ShardLocks.LockWait(7, 5, "? lock"));
        assertThat(locks.transaction(6)).isEqualTo(new ShardLocks.ShardTransaction(6, "24", 4,
                "update d.t set v=2 where id=1", 13L));
        assertThat(locks.transaction(5).queryId()).isNull();
        assertThat(locks.transaction(0).trxId()).isEqualTo("421");
        assertThat(locks.transactions()).hasSize(3);
    }

    private static ShardAdmin.Row row(String... values) {
        return new ShardAdmin.Row(Arrays.asList(values));
    }
}
