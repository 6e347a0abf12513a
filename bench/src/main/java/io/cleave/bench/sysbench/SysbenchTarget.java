package io.cleave.bench.sysbench;

import java.util.List;

/** Where sysbench connects: loopback TCP to a shard or the proxy, with an account and a database. */
public record SysbenchTarget(String host, int port, String user, String password, String database) {

    List<String> arguments() {
        return List.of("--mysql-host=" + host, "--mysql-port=" + port, "--mysql-user=" + user,
            "--mysql-password=" + password, "--mysql-db=" + database);
    }
}
