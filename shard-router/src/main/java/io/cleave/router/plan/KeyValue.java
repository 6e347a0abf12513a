package io.cleave.router.plan;

import io.cleave.router.keyspace.ShardKey;

/** A sharding-key value in a plan: a statement slot (possibly negated, as in {@code = -?}) or a constant. */
public sealed interface KeyValue permits KeyValue.SlotValue, KeyValue.ConstantKey {

    record SlotValue(int slot, boolean negated) implements KeyValue {
        @Override
        public String toString() {
            return (negated ? "-$" : "$") + slot;
        }
    }

    record ConstantKey(ShardKey key) implements KeyValue {
        @Override
        public String toString() {
            return key.toString();
        }
    }
}
