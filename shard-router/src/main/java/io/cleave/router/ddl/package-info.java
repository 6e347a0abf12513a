/**
 * Structure changes as one server makes them: all or nothing. {@link io.cleave.router.ddl.DdlInverse}
 * gives the statement that undoes a DDL where it applied (CREATE -> DROP, ADD -> DROP, RENAME back),
 * for the shards that ran a DDL another shard refused.
 */
package io.cleave.router.ddl;
