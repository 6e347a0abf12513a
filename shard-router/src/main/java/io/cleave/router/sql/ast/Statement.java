package io.cleave.router.sql.ast;

/**
 * One parsed statement. {@link #kind()} tells what it is without a type switch; the records
 * carry what the planner needs. Families: {@link Query}, {@link Insert}, {@link Update},
 * {@link Delete}, {@link SetStatement}, {@link TransactionStatement}, {@link Ddl},
 * {@link UtilityStatement}.
 */
public sealed interface Statement extends Node
        permits Query, Insert, Update, Delete, SetStatement, TransactionStatement, Ddl, UtilityStatement {

    StatementKind kind();
}
