/**
 * Statement digests for plan caching. {@link io.cleave.router.sql.digest.StatementDigest}
 * computes, into reusable buffers, the normalized key, its hash and the slot list;
 * {@link io.cleave.router.sql.digest.DigestKey} is the key as a map key (a reusable view for
 * lookups, an immutable copy to store); {@link io.cleave.router.sql.digest.SlotValues} decodes a
 * literal slot's value (long with overflow detection, BigDecimal, double, unescaped string bytes
 * with the introducer's charset, hex/bit bytes) from the original bytes when asked, and gives
 * the slot's exact byte range for splicing.
 *
 * <p>What stays in the key because it changes the plan: ORDER BY / GROUP BY positions
 * ({@code ORDER BY 2}), column alias strings, NULL/TRUE/FALSE, hints, the number of items in an
 * IN list, and the number of strings in a run of adjacent strings.
 */
package io.cleave.router.sql.digest;
