/**
 * The SQL front end of the router: bytes in, route-ready facts out, in three stages with
 * different costs.
 *
 * <ol>
 *   <li><b>Lex</b> ({@link io.cleave.router.sql.lex}): the statement's bytes, in the client's
 *       ASCII-compatible charset, become a token stream of parallel int arrays (type, start, end)
 *       in a reusable {@code TokenBuffer}. No String is decoded and nothing is allocated once warm.</li>
 *   <li><b>Digest</b> ({@link io.cleave.router.sql.digest}): the tokens become a normalized key
 *       (literals as {@code ?}, keywords upper-cased, whitespace and comments gone) with a 64-bit
 *       hash and a slot list: one slot per literal or client placeholder, in order. The key finds
 *       the cached plan; the slots carry this statement's values, decoded lazily from its bytes.</li>
 *   <li><b>Parse</b> ({@link io.cleave.router.sql.parse}, cache misses only): the tokens become an
 *       immutable AST ({@link io.cleave.router.sql.ast}) whose nodes carry token spans and whose
 *       parameter positions are slot numbers.</li>
 * </ol>
 *
 * <p>Statements that share a digest have the same tokens in the same positions, so a plan refers
 * to token indexes and slot numbers, never to byte offsets, and serves them all. When a plan
 * rewrites a statement for several shards it splices the original bytes of the statement at hand
 * by the spans' token indexes, so nothing is re-encoded.
 */
package io.cleave.router.sql;
