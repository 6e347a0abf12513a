package io.cleave.bench.chaos;

import io.cleave.bench.home.HomeSpec;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The bank: {@code accounts (branch, id, balance, pad)} and {@code entries (branch, transfer, id,
 * delta)}, both sharded by branch (a range keyspace, {@link HomeSpec#firstBranch} per shard). Every
 * transfer debits one account, credits another and writes an entry for each in the same
 * transaction, so the data itself says which transfers committed: an account's balance is its
 * opening balance plus its entries, and a transfer has both entries or none.
 */
public final class Bank {
    public static final String DATABASE = "chaos";
    public static final long OPENING_BALANCE = 1_000;
    private static final String PAD = "x".repeat(120);
    private static final int ROWS_PER_INSERT = 500;

    private final int shards;
    private final int branchesPerShard;
    private final int accountsPerBranch;

    /** shards: how many the home starts with (each gets branchesPerShard branches in its range). */
    public Bank(int shards, int branchesPerShard, int accountsPerBranch) {
        this.shards = shards;
        this.branchesPerShard = branchesPerShard;
        this.accountsPerBranch = accountsPerBranch;
    }

    public List<Integer> branches() {
        List<Integer> out = new ArrayList<>();
        for (int s = 0; s < shards; s++) {
            for (int b = 0; b < branchesPerShard; b++) {
                out.add(HomeSpec.firstBranch(s) + b);
            }
        }
        return out;
    }

    public int accountsPerBranch() {
        return accountsPerBranch;
    }

    public long accounts() {
        return (long) shards * branchesPerShard * accountsPerBranch;
    }

    public long total() {
        return accounts() * OPENING_BALANCE;
    }

    /** Creates both tables through the proxy (on every shard) and inserts the accounts through it. */
    public void load(Connection proxy) throws SQLException {
        try (Statement s = proxy.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS accounts (branch INT NOT NULL, id INT NOT NULL, balance BIGINT NOT NULL,"
                + " pad CHAR(120) NOT NULL DEFAULT '', PRIMARY KEY (branch, id)) ENGINE=InnoDB");
            s.execute("CREATE TABLE IF NOT EXISTS entries (branch INT NOT NULL, transfer BIGINT NOT NULL, id INT NOT NULL,"
                + " delta BIGINT NOT NULL, PRIMARY KEY (branch, transfer, id)) ENGINE=InnoDB");
            StringBuilder sql = new StringBuilder();
            int rows = 0;
            for (int branch : branches()) {
                for (int id = 1; id <= accountsPerBranch; id++) {
                    sql.append(rows == 0 ? "INSERT INTO accounts (branch, id, balance, pad) VALUES " : ",")
                        .append('(').append(branch).append(',').append(id).append(',').append(OPENING_BALANCE)
                        .append(",'").append(PAD).append("')");
                    if (++rows == ROWS_PER_INSERT) {
                        s.executeUpdate(sql.toString());
                        sql.setLength(0);
                        rows = 0;
                    }
                }
            }
            if (rows > 0) {
                s.executeUpdate(sql.toString());
            }
        }
    }

    /**
     * A transfer: 7 in 10 between two accounts of one branch, the others between branches that
     * started on two different shards; amounts 1-100; debit or credit first at random (so
     * concurrent transfers can lock across shards in opposite orders).
     */
    public BankTransfer draw(SplittableRandom random, long id) {
        BankAccount from;
        BankAccount to;
        if (random.nextInt(10) < 7) {
            int branch = branch(random, random.nextInt(shards));
            int a = 1 + random.nextInt(accountsPerBranch);
            int b = 1 + (a + random.nextInt(accountsPerBranch - 1)) % accountsPerBranch;
            from = new BankAccount(branch, a);
            to = new BankAccount(branch, b);
        } else {
            int s1 = random.nextInt(shards);
            int s2 = (s1 + 1 + random.nextInt(shards - 1)) % shards;
            from = new BankAccount(branch(random, s1), 1 + random.nextInt(accountsPerBranch));
            to = new BankAccount(branch(random, s2), 1 + random.nextInt(accountsPerBranch));
        }
        return new BankTransfer(id, from, to, 1 + random.nextInt(100), random.nextBoolean());
    }

    private int branch(SplittableRandom random, int shard) {
        return HomeSpec.firstBranch(shard) + random.nextInt(branchesPerShard);
    }
}
