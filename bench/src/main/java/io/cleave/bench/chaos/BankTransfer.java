package io.cleave.bench.chaos;

/** Money moving from one account to another: the debit and the credit happen together or not at all. */
public record BankTransfer(long id, BankAccount from, BankAccount to, long amount, boolean debitFirst) {

    public BankTransfer {
        if (from.equals(to) || amount <= 0) {
            throw new IllegalArgumentException("a transfer needs two accounts and a positive amount");
        }
    }

    /** Whether the two accounts are in different branches (and so, at the start, on different shards when drawn so). */
    public boolean acrossBranches() {
        return from.branch() != to.branch();
    }
}
