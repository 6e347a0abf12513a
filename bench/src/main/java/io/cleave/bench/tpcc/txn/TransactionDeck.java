package io.cleave.bench.tpcc.txn;

import io.cleave.bench.tpcc.data.TpccRandom;

/**
 * Picks the next transaction type from a shuffled deck of 100 cards holding each type as many
 * times as its percentage (clause 5.2.4.2): every 100 consecutive draws from a terminal hold the
 * exact mix, while the order within a deck is random.
 */
public final class TransactionDeck {
    private final TransactionType[] cards;
    private final TpccRandom random;
    private int next;

    public TransactionDeck(TpccRandom random) {
        this.random = random;
        int size = 0;
        for (TransactionType type : TransactionType.values()) {
            size += type.percent();
        }
        cards = new TransactionType[size];
        int i = 0;
        for (TransactionType type : TransactionType.values()) {
            for (int n = 0; n < type.percent(); n++) {
                cards[i++] = type;
            }
        }
        next = cards.length;
    }

    public int size() {
        return cards.length;
    }

    public TransactionType next() {
        if (next == cards.length) {
            shuffle();
            next = 0;
        }
        return cards[next++];
    }

    private void shuffle() {
        for (int i = cards.length - 1; i > 0; i--) {
            int j = random.uniform(0, i);
            TransactionType swap = cards[i];
            cards[i] = cards[j];
            cards[j] = swap;
        }
    }
}
