package io.cleave.router.plan;

import java.util.List;

/**
 * A condition the proxy evaluates on merged rows (HAVING after re-aggregation). Only what can be
 * evaluated exactly is expressed: comparisons of columns and constants, combined with AND, OR, NOT.
 */
public sealed interface Predicate permits Predicate.Compare, Predicate.And, Predicate.Or, Predicate.Not,
        Predicate.IsNull {

    enum Op { EQ, NE, LT, LE, GT, GE, NULL_SAFE_EQ }

    /** An operand: a merged column or a statement slot. */
    sealed interface Operand permits ColumnOperand, SlotOperand {
    }

    record ColumnOperand(int column) implements Operand {
    }

    record SlotOperand(int slot) implements Operand {
    }

    record Compare(Op op, Operand left, Operand right) implements Predicate {
    }

    record And(List<Predicate> terms) implements Predicate {
    }

    record Or(List<Predicate> terms) implements Predicate {
    }

    record Not(Predicate term) implements Predicate {
    }

    record IsNull(Operand operand, boolean negated) implements Predicate {
    }
}
