package io.cleave.router.keyspace;

/** The type of a keyspace's sharding column, which decides how literal values convert to keys. */
public enum KeyType {
    /** Integer columns (INT, BIGINT, ...): '42', 42 and 42.0 are the same key. */
    INTEGER,
    /** Character columns under a case-insensitive collation: 'Abc' and 'abc ' are the same key. */
    STRING
}
