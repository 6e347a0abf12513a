/**
 * The parser: recursive descent for statements, precedence climbing for expressions, over the
 * token buffer and the digest of one statement. {@link io.cleave.router.sql.parse.SqlParser} is
 * the entry point; it throws only {@link io.cleave.router.sql.parse.SqlSyntaxException}, with
 * MySQL's error 1064 text, for any input. Nesting is bounded so hostile input cannot overflow
 * the stack. The parser runs on plan-cache misses only, so it favours clarity over speed and may
 * allocate freely.
 */
package io.cleave.router.sql.parse;
