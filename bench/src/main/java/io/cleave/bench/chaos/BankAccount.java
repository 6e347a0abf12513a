package io.cleave.bench.chaos;

/** One bank account: its branch (the sharding key) and its id within the branch. */
public record BankAccount(int branch, int id) {
    @Override
    public String toString() {
        return branch + "/" + id;
    }
}
