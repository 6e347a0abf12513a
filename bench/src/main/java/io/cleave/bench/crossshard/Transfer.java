package io.cleave.bench.crossshard;

import io.cleave.bench.home.HomeSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One transaction of the benchmark: an amount moved between accounts on k different shards, one
 * account per shard, in the order they are updated (the first is the coordinator of a cross-shard
 * commit). The first account gets (k-1)·y, each other one gives y, so the deltas sum to zero and
 * the total of all balances stays what it was. With k = 1 the delta is 0: the row's move counter
 * still changes, so it is a real write and commit like the others.
 */
public record Transfer(List<Long> accounts, List<Long> deltas) {

    public Transfer {
        if (accounts.isEmpty() || accounts.size() != deltas.size()) {
            throw new IllegalArgumentException("one delta per account expected: " + accounts + " " + deltas);
        }
        accounts = List.copyOf(accounts);
        deltas = List.copyOf(deltas);
    }

    /** How many shards (and rows) it touches. */
    public int k() {
        return accounts.size();
    }

    /**
     * k shards drawn at random without repetition, on each a random account among the first
     * accountsPerShard of its range, and an amount y between 1 and 100.
     */
    public static Transfer draw(SplittableRandom random, int k, int shards, int accountsPerShard) {
        if (k < 1 || k > shards) {
            throw new IllegalArgumentException("k must be between 1 and the shard count " + shards + ": " + k);
        }
        if (accountsPerShard < 1) {
            throw new IllegalArgumentException("at least one account per shard expected: " + accountsPerShard);
        }
        int[] order = new int[shards];
        for (int s = 0; s < shards; s++) {
            order[s] = s;
        }
        List<Long> accounts = new ArrayList<>(k);
        List<Long> deltas = new ArrayList<>(k);
        long y = 1 + random.nextInt(100);
        for (int i = 0; i < k; i++) {
            int j = i + random.nextInt(shards - i);   // partial Fisher-Yates: k distinct shards in random order
            int shard = order[j];
            order[j] = order[i];
            order[i] = shard;
            accounts.add(HomeSpec.firstAccount(shard) + random.nextInt(accountsPerShard));
            deltas.add(i == 0 ? (k - 1) * y : -y);
        }
        return new Transfer(accounts, deltas);
    }
}
