package io.cleave.bench.tpcc.run;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Opens a new connection to the target; called once per terminal and again after a connection is lost. */
@FunctionalInterface
public interface ConnectionSource {
    Connection open() throws SQLException;

    static ConnectionSource of(DataSource dataSource) {
        return dataSource::getConnection;
    }
}
