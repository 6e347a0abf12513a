package io.cleave.router.plan;

/** A value a plan needs at execution: a statement slot (literal or bound parameter) or a constant. */
public sealed interface ValueRef permits ValueRef.Slot, ValueRef.Constant {

    record Slot(int slot) implements ValueRef {
        @Override
        public String toString() {
            return "$" + slot;
        }
    }

    record Constant(long value) implements ValueRef {
        @Override
        public String toString() {
            return Long.toString(value);
        }
    }
}
