package io.cleave.e2e.online;

import io.cleave.e2e.support.SecondServerOnly;
import io.cleave.e2e.support.ServerMatrix;
import io.cleave.e2e.support.StandaloneServer;
import io.cleave.manager.scale.BufferPools;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The online buffer pool resize that {@code cleave scale} runs on every shard, alone, on each server
 * of the test run: servers tell the end of a resize differently (MariaDB 11.4.5 and MySQL in a
 * status that ends in "Completed ...", MariaDB 10.11.12 and later by finishing inside the SET with
 * an empty status), and each must be seen as done when it is, neither before the pool has its new
 * pages nor only when the wait for it runs out. On the embedded server ShardTableAndScaleIT resizes
 * every shard's pool through {@code cleave scale} and checks each size, so a run with a second
 * server runs this class there only (on the embedded server it mostly costs a server start).
 */
@ServerMatrix
@SecondServerOnly
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BufferPoolResizeIT {

    private static final long MIB = 1024 * 1024;

    private StandaloneServer server;

    @BeforeAll
    void start() throws Exception {
        server = StandaloneServer.startTestServer();
        server.root("CREATE USER sizer@'%' IDENTIFIED BY 'sizer'; GRANT ALL ON *.* TO sizer@'%'");
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void growsAndShrinksOnlineAndSaysSoOnceItIsDone() throws Exception {
        try (Connection c = server.connect("sizer", "sizer", "mysql"); Statement s = c.createStatement()) {
            long before = number(s, "SELECT @@GLOBAL.innodb_buffer_pool_size");
            long pagesBefore = pages(s);
            assertThat(before).isEqualTo(64 * MIB);

            // Not a whole number of MiB: each server rounds it its own way, and the size it rounded to is returned.
            // resize() fails if the server never reports the end of the resize within its limit.
            long grown = BufferPools.resize(c, 96 * MIB + 12_345);
            long grownPages = pages(s);
            assertThat(grown).isEqualTo(number(s, "SELECT @@GLOBAL.innodb_buffer_pool_size")).isBetween(95 * MIB, 128 * MIB);
            assertThat(grownPages).as("the pool has its new pages when the resize is said done").isGreaterThan(pagesBefore);

            long shrunk = BufferPools.resize(c, 64 * MIB);
            assertThat(shrunk).isEqualTo(64 * MIB).isEqualTo(number(s, "SELECT @@GLOBAL.innodb_buffer_pool_size"));
            assertThat(pages(s)).isLessThan(grownPages);

            assertThat(BufferPools.resize(c, 64 * MIB)).as("nothing to do").isEqualTo(64 * MIB);
        }
    }

    private static long pages(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_total'")) {
            rs.next();
            return rs.getLong(2);
        }
    }

    private static long number(Statement s, String sql) throws SQLException {
        try (ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
