package io.cleave.proxy.backend;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Statements prepared on one backend connection, least recently used first. Bounded so that
 * connections x cache size stays under the shard's max_prepared_stmt_count: what is evicted is
 * handed back to be closed on the server.
 */
public final class PreparedStatementCache {

    private final int capacity;
    private final LinkedHashMap<PreparedSql, BackendStatement> statements = new LinkedHashMap<>(16, 0.75f, true);

    public PreparedStatementCache(int capacity) {
        this.capacity = capacity;
    }

    public BackendStatement get(PreparedSql sql) {
        return statements.get(sql);
    }

    /** Adds a statement; returns the ones evicted to make room (to be closed with COM_STMT_CLOSE). */
    public List<BackendStatement> put(PreparedSql sql, BackendStatement statement) {
        BackendStatement previous = statements.put(sql, statement);
        List<BackendStatement> evicted = List.of();
        if (previous != null && previous != statement) {
            evicted = new ArrayList<>(List.of(previous));
        }
        if (statements.size() > capacity) {
            evicted = evicted.isEmpty() ? new ArrayList<>() : evicted;
            Iterator<Map.Entry<PreparedSql, BackendStatement>> it = statements.entrySet().iterator();
            while (statements.size() > capacity && it.hasNext()) {
                evicted.add(it.next().getValue());
                it.remove();
            }
        }
        return evicted;
    }

    public BackendStatement remove(PreparedSql sql) {
        return statements.remove(sql);
    }

    /** Forgets every statement without closing it: the server already released them (a new login). */
    void clear() {
        statements.clear();
    }

    public int size() {
        return statements.size();
    }
}
