package io.cleave.bench.jdbc;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;
import javax.sql.DataSource;

/** A JDBC URL with credentials, as a DataSource that opens a new physical connection each time. */
public record JdbcTarget(String url, String user, String password) implements DataSource {

    /** The URL with server-side prepared statements turned on unless it already says otherwise. */
    public JdbcTarget withServerPreparedStatements() {
        String u = url;
        if (!u.contains("useServerPrepStmts")) {
            u = withParameter(u, "useServerPrepStmts=true");
        }
        if (!u.contains("cachePrepStmts")) {
            u = withParameter(u, "cachePrepStmts=true");
        }
        return new JdbcTarget(u, user, password);
    }

    /** The URL with one more parameter ({@code name=value}). */
    public JdbcTarget withParameter(String parameter) {
        return new JdbcTarget(withParameter(url, parameter), user, password);
    }

    /** The same server with no default database, to create the one the URL names. */
    public JdbcTarget withoutDatabase() {
        return new JdbcTarget(url.replaceFirst("^(jdbc:[a-z]+://[^/?]*)/[^?]*", "$1/"), user, password);
    }

    /** The database the URL names, or empty. */
    public String database() {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^jdbc:[a-z]+://[^/?]*/([^?]*)").matcher(url);
        return m.find() ? m.group(1) : "";
    }

    /** For results and logs: the URL with any password parameter blanked out. */
    public String redactedUrl() {
        return url.replaceAll("(?i)(password=)[^&]*", "$1***");
    }

    @Override
    public Connection getConnection() throws SQLException {
        Properties properties = new Properties();
        if (user != null) {
            properties.setProperty("user", user);
        }
        if (password != null) {
            properties.setProperty("password", password);
        }
        return DriverManager.getConnection(url, properties);
    }

    @Override
    public Connection getConnection(String otherUser, String otherPassword) throws SQLException {
        return new JdbcTarget(url, otherUser, otherPassword).getConnection();
    }

    @Override
    public PrintWriter getLogWriter() {
        return null;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
    }

    @Override
    public void setLoginTimeout(int seconds) {
    }

    @Override
    public int getLoginTimeout() {
        return 0;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException();
    }

    @Override
    public <T> T unwrap(Class<T> type) throws SQLException {
        throw new SQLException("not a wrapper");
    }

    @Override
    public boolean isWrapperFor(Class<?> type) {
        return false;
    }

    @Override
    public String toString() {
        return redactedUrl();
    }

    private static String withParameter(String url, String parameter) {
        return url + (url.contains("?") ? "&" : "?") + parameter;
    }
}
