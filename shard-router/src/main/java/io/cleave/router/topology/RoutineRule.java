package io.cleave.router.topology;

/**
 * A stored procedure declared to work on the rows of one key: {@code CALL routine(...)} runs on the
 * shard that holds the value of its parameter {@code parameter} in {@code keyspace}. The
 * declaration is the application's promise that the routine reads and writes only that key's rows
 * (and reads reference tables), as a server with the key's rows alone would run it.
 */
public record RoutineRule(String routine, String keyspace, String parameter) {
}
