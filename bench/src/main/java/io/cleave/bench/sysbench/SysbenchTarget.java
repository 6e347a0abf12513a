package io.cleave.bench.sysbench;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * Where sysbench connects: loopback TCP (socket null) or a Unix socket, to a shard, a relay or the
 * proxy, with an account and a database.
 */
public record SysbenchTarget(String host, int port, Path socket, String user, String password, String database) {

    public SysbenchTarget(String host, int port, String user, String password, String database) {
        this(host, port, null, user, password, database);
    }

    /** The same account and database over a Unix socket. */
    public SysbenchTarget overSocket(Path path) {
        return new SysbenchTarget("localhost", 0, path, user, password, database);
    }

    /** The same account and database on another loopback port. */
    public SysbenchTarget onPort(int otherPort) {
        return new SysbenchTarget("127.0.0.1", otherPort, null, user, password, database);
    }

    List<String> arguments() {
        // The client library takes the socket only when the host is "localhost".
        List<String> where = socket == null ? List.of("--mysql-host=" + host, "--mysql-port=" + port)
            : List.of("--mysql-host=localhost", "--mysql-socket=" + socket);
        return Stream.concat(where.stream(), Stream.of("--mysql-user=" + user,
            "--mysql-password=" + password, "--mysql-db=" + database)).toList();
    }
}
