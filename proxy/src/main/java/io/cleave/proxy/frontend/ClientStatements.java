package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.PreparedSql;
import io.cleave.router.plan.Analysis;

import java.util.HashMap;
import java.util.Map;

/** The statements a session has prepared, by the ids the proxy gave them. */
final class ClientStatements {

    private final Map<Long, ClientStatement> byId = new HashMap<>();
    private long lastId;

    ClientStatement add(PreparedSql sql, Analysis analysis) {
        ClientStatement statement = new ClientStatement(++lastId, sql, analysis);
        byId.put(statement.id(), statement);
        return statement;
    }

    ClientStatement get(long id) {
        return byId.get(id);
    }

    /** The statement an execute names: 0xffffffff means the one prepared last, as MariaDB clients use it. */
    ClientStatement toExecute(long id) {
        return byId.get(id == 0xffffffffL ? lastId : id);
    }

    /** Removes the statement (COM_STMT_CLOSE, or its prepare failed) and drops its long data. */
    ClientStatement forget(long id) {
        ClientStatement statement = byId.remove(id);
        if (statement != null) {
            statement.clearLongData();
        }
        return statement;
    }

    void clear() {
        byId.values().forEach(ClientStatement::clearLongData);
        byId.clear();
    }
}
