package io.cleave.bench.tpcc.run;

/** Failures with one code: how many, and the first message seen, to tell what they were. */
public record ErrorStat(String code, String sqlState, long count, String firstMessage) {
}
