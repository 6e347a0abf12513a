package io.cleave.proxy.server;

import java.util.List;

/**
 * Where the proxy records a structure change that applied on some shards and not on others and
 * could not be undone (a DROP, a change without an inverse): {@code cleave status} shows it and
 * {@code cleave repair} completes it on the shards that lack it.
 */
public interface SchemaDriftLog {

    SchemaDriftLog NONE = change -> {
    };

    void record(UnfinishedChange change);

    /**
     * A DDL the shards did not all apply.
     *
     * @param schema    the session's schema when it ran (null: none), where its unqualified names live
     * @param statement the statement as the client sent it
     * @param applied   the shards where it applied
     * @param failed    the shards where it failed
     * @param error     the first failure's message
     */
    record UnfinishedChange(String schema, String statement, List<Integer> applied, List<Integer> failed, String error) {
        public UnfinishedChange {
            applied = List.copyOf(applied);
            failed = List.copyOf(failed);
        }
    }
}
