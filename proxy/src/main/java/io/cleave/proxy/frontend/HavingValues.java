package io.cleave.proxy.frontend;

import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.plan.ParameterValues;
import io.cleave.router.plan.Predicate;

import java.io.ByteArrayOutputStream;
import java.util.HashMap;
import java.util.Map;

/**
 * The statement values a merged HAVING compares with, copied when the statement goes out to its
 * shards: a text statement's values live in its event loop's reused buffers, which the next
 * statement analyzed on that loop (any session's) overwrites before the shards answer. Holds
 * only what the comparison reads: each value's text and whether it is a number.
 */
final class HavingValues implements ParameterValues {

    private final Map<Integer, String> texts = new HashMap<>();
    private final Map<Integer, Boolean> numeric = new HashMap<>();

    HavingValues(Predicate having, ParameterValues values) {
        copy(having, values);
    }

    private void copy(Predicate p, ParameterValues values) {
        if (p instanceof Predicate.And a) {
            a.terms().forEach(t -> copy(t, values));
        } else if (p instanceof Predicate.Or o) {
            o.terms().forEach(t -> copy(t, values));
        } else if (p instanceof Predicate.Not n) {
            copy(n.term(), values);
        } else if (p instanceof Predicate.IsNull n) {
            copy(n.operand(), values);
        } else {
            Predicate.Compare c = (Predicate.Compare) p;
            copy(c.left(), values);
            copy(c.right(), values);
        }
    }

    private void copy(Predicate.Operand operand, ParameterValues values) {
        if (operand instanceof Predicate.SlotOperand s) {
            texts.put(s.slot(), values.text(s.slot()));
            numeric.put(s.slot(), values.isNumeric(s.slot()));
        }
    }

    @Override
    public boolean isNull(int slot) {
        return text(slot) == null;
    }

    @Override
    public String text(int slot) {
        if (!texts.containsKey(slot)) {
            throw new IllegalStateException("slot " + slot + " is not compared by the HAVING");
        }
        return texts.get(slot);
    }

    @Override
    public boolean isNumeric(int slot) {
        text(slot);
        return numeric.get(slot);
    }

    @Override
    public ShardKey key(int slot, KeyType type) {
        throw new UnsupportedOperationException("a HAVING's values route nothing");
    }

    @Override
    public long longValue(int slot) {
        throw new UnsupportedOperationException("a HAVING's values are compared as text or numbers only");
    }

    @Override
    public void appendSql(int slot, ByteArrayOutputStream out) {
        throw new UnsupportedOperationException("a HAVING's values are not sent to shards");
    }
}
