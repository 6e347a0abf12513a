package io.cleave.manager.supervisor;

import com.mysql.cj.jdbc.Driver;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Properties;

/**
 * Asks an instance a real question: connects over loopback TCP with the shard account and runs
 * {@code SELECT VERSION()}. A socket file alone proves little (it appears before InnoDB is ready).
 */
public final class ReadinessProbe {

    /** What one probe found. */
    public record Result(boolean ok, String serverVersion, Duration latency, String error) {
    }

    private final String user;
    private final String password;
    private final Driver driver;

    public ReadinessProbe(String user, String password) {
        this.user = user;
        this.password = password;
        try {
            this.driver = new Driver();
        } catch (SQLException e) {
            throw new IllegalStateException("cannot load the MySQL JDBC driver", e);
        }
    }

    public Result probe(int port) {
        long started = System.nanoTime();
        try (Connection c = connect(port);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT VERSION()")) {
            rs.next();
            return new Result(true, rs.getString(1), Duration.ofNanos(System.nanoTime() - started), null);
        } catch (SQLException e) {
            return new Result(false, null, Duration.ofNanos(System.nanoTime() - started), e.getMessage());
        }
    }

    /** A connection to the instance on loopback {@code port} as the shard account, with short timeouts. */
    public Connection connect(int port) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", user);
        props.setProperty("password", password);
        props.setProperty("connectTimeout", "2000");
        props.setProperty("socketTimeout", "5000");
        props.setProperty("sslMode", "PREFERRED");
        props.setProperty("allowPublicKeyRetrieval", "true");
        return driver.connect("jdbc:mysql://127.0.0.1:" + port + "/", props);
    }
}
