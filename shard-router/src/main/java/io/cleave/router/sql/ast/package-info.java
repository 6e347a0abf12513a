/**
 * The immutable AST. Every node has a {@link io.cleave.router.sql.ast.Span}: the half-open range
 * of token indexes it was parsed from. Statements implement the sealed
 * {@link io.cleave.router.sql.ast.Statement} and report a {@link io.cleave.router.sql.ast.StatementKind};
 * expressions are the records of the sealed {@link io.cleave.router.sql.ast.Expr}, where a
 * parameterized value is an {@code Expr.Slot} numbered as in the digest's slot list.
 *
 * <p>Helpers for planners: {@link io.cleave.router.sql.ast.Exprs} (AND-conjuncts, walks,
 * aggregates), {@link io.cleave.router.sql.ast.TableReferences} (every table with its query
 * scope, subqueries included), and {@link io.cleave.router.sql.ast.AstPrinter} (one-line
 * S-expressions for tests, logs and EXPLAIN).
 */
package io.cleave.router.sql.ast;
