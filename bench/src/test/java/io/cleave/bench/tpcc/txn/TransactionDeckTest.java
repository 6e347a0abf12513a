package io.cleave.bench.tpcc.txn;

import static org.assertj.core.api.Assertions.assertThat;

import io.cleave.bench.tpcc.data.TpccRandom;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TransactionDeckTest {

    @Test
    void standardMixAddsUpToOneHundred() {
        int total = 0;
        for (TransactionType type : TransactionType.values()) {
            total += type.percent();
        }
        assertThat(total).isEqualTo(100);
        assertThat(TransactionType.NEW_ORDER.percent()).isEqualTo(45);
        assertThat(TransactionType.PAYMENT.percent()).isEqualTo(43);
        assertThat(TransactionType.ORDER_STATUS.percent()).isEqualTo(4);
        assertThat(TransactionType.DELIVERY.percent()).isEqualTo(4);
        assertThat(TransactionType.STOCK_LEVEL.percent()).isEqualTo(4);
    }

    @Test
    void everyDeckHoldsTheExactMix() {
        TransactionDeck deck = new TransactionDeck(new TpccRandom(1));
        assertThat(deck.size()).isEqualTo(100);
        for (int round = 0; round < 50; round++) {
            Map<TransactionType, Integer> counts = new EnumMap<>(TransactionType.class);
            for (int i = 0; i < deck.size(); i++) {
                counts.merge(deck.next(), 1, Integer::sum);
            }
            for (TransactionType type : TransactionType.values()) {
                assertThat(counts.get(type)).as(type.name()).isEqualTo(type.percent());
            }
        }
    }

    @Test
    void decksAreShuffledDifferently() {
        TransactionDeck deck = new TransactionDeck(new TpccRandom(2));
        List<TransactionType> first = draw(deck);
        List<TransactionType> second = draw(deck);
        assertThat(first).isNotEqualTo(second);
    }

    private static List<TransactionType> draw(TransactionDeck deck) {
        List<TransactionType> out = new ArrayList<>();
        for (int i = 0; i < deck.size(); i++) {
            out.add(deck.next());
        }
        return out;
    }
}
