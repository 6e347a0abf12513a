package io.cleave.e2e.proxy;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RawMysqlClient;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.auth.PasswordHashes;
import io.cleave.proxy.frontend.FrontendHandler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.cleave.e2e.support.RawMysqlClient.describe;
import static io.cleave.e2e.support.RawMysqlClient.errorCode;
import static io.cleave.e2e.support.RawMysqlClient.errorMessage;
import static io.cleave.e2e.support.RawMysqlClient.isErr;
import static io.cleave.e2e.support.RawMysqlClient.isOk;
import static io.cleave.e2e.support.RawMysqlClient.sqlState;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a client can make the proxy hold, before and after login, each limit set low through its
 * config key: the login timeout, the packet cap before login, max_allowed_packet for long data
 * (checked against the shard itself, which has the same max_allowed_packet), a command with a
 * wrong sequence id, the failed-login throttle, and what reaches the log of a hostile user name.
 * Tests that fail logins do so from their own loopback address (127.0.0.x): the throttle counts
 * per account and client host.
 */
class ClientLimitsIT {

    private static final int LOGIN_TIMEOUT_S = 1;
    private static final int MAX_LOGIN_PACKET = 4096;
    private static final int MAX_ALLOWED_PACKET = 1 << 20;
    private static final int DELAY_MS = 300;
    private static final int MAX_DELAY_MS = 1500;
    private static final String PASSWORD = "app-secret";

    private static CleaveTestHome home;
    private static RunningDaemon daemon;

    @BeforeAll
    static void start() throws Exception {
        home = CleaveTestHome.builder().shards(1)
                .serverOption("max_allowed_packet", Integer.toString(MAX_ALLOWED_PACKET))
                .proxyOption("connect_timeout_s", LOGIN_TIMEOUT_S)
                .proxyOption("max_login_packet", MAX_LOGIN_PACKET)
                .proxyOption("max_allowed_packet", "1M")
                .proxyOption("failed_logins_before_delay", 2)
                .proxyOption("failed_login_delay_ms", DELAY_MS)
                .proxyOption("failed_login_max_delay_ms", MAX_DELAY_MS)
                .proxyUsers("  users:\n    - name: root\n      password: \"\"\n    - name: app\n"
                        + "      mysql_native_password: \"" + PasswordHashes.mysqlNative(PASSWORD) + "\"\n")
                .create();
        daemon = home.start();
        try (RawMysqlClient c = RawMysqlClient.login(daemon.proxyPort(), "root", "", "")) {
            assertThat(isOk(c.query("CREATE DATABASE app"))).isTrue();
            assertThat(isOk(c.query("CREATE TABLE app.t (id INT PRIMARY KEY, v INT)"))).isTrue();
            assertThat(isOk(c.query("INSERT INTO app.t VALUES (1, 0)"))).isTrue();
        }
    }

    @AfterAll
    static void stop() {
        if (daemon != null) {
            daemon.close();
        }
        if (home != null) {
            home.close();
        }
    }

    @Test
    void aClientThatNeverLogsInIsClosedAfterTheLoginTimeout() throws Exception {
        double before = daemon.metric("cleave_proxy_login_aborts_total{reason=\"timeout\"}");
        long started = System.nanoTime();
        try (RawMysqlClient c = RawMysqlClient.connect(daemon.proxyPort())) {
            byte[] answer = c.readPacket();
            assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(LOGIN_TIMEOUT_S * 1_000_000_000L);
            assertThat(errorCode(answer)).as(describe(answer)).isEqualTo(1159);
            assertThat(sqlState(answer)).isEqualTo("08S01");
            assertThat(errorMessage(answer)).contains("not logged in within 1000 ms");
            assertThat(c.closedByServer()).isTrue();
        }
        // A client halfway through its login is held to the same deadline.
        try (RawMysqlClient c = RawMysqlClient.connect(daemon.proxyPort())) {
            c.writeRaw(new byte[] {100, 0, 0, 1, 1, 2, 3});
            assertThat(errorCode(c.readPacket())).isEqualTo(1159);
            assertThat(c.closedByServer()).isTrue();
        }
        assertThat(daemon.metric("cleave_proxy_login_aborts_total{reason=\"timeout\"}") - before).isEqualTo(2);
    }

    @Test
    void anHttpRequestIsTurnedAwayAtOnceInsteadOfReadAsAFiveMegabytePacket() throws Exception {
        try (RawMysqlClient c = RawMysqlClient.connect(daemon.proxyPort())) {
            c.writeRaw("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            byte[] answer = c.readPacket();
            // 1153, not the login timeout's 1159: the header alone decided.
            assertThat(errorCode(answer)).as(describe(answer)).isEqualTo(1153);
            assertThat(errorMessage(answer)).isEqualTo("Got a packet bigger than the 4096 bytes allowed before login");
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void aHandshakeResponseAboveTheCapIsRefusedBeforeItsPayloadIsSent() throws Exception {
        double before = daemon.metric("cleave_proxy_login_aborts_total{reason=\"packet_too_large\"}");
        try (RawMysqlClient c = RawMysqlClient.connect(daemon.proxyPort())) {
            // Announces 16 MB - 1 and sends only the first bytes of it.
            c.writeRaw(new byte[] {(byte) 0xff, (byte) 0xff, (byte) 0xff, 1, 0, 0, 0, 0});
            assertThat(errorCode(c.readPacket())).isEqualTo(1153);
            assertThat(c.closedByServer()).isTrue();
        }
        // The cap leaves room for a real handshake response with connection attributes.
        try (RawMysqlClient c = RawMysqlClient.login(daemon.proxyPort(), "root", "", "app")) {
            assertThat(c.queryRows("SELECT v FROM t WHERE id = 1")).containsExactly(List.of("0"));
        }
        assertThat(daemon.metric("cleave_proxy_login_aborts_total{reason=\"packet_too_large\"}") - before).isEqualTo(1);
    }

    @Test
    void aTruncatedHandshakeResponseGetsAPlainErrorWithoutBufferInternals() throws Exception {
        try (RawMysqlClient c = RawMysqlClient.connect(daemon.proxyPort())) {
            // Protocol 4.1 capabilities and nothing else.
            c.writePacket(1, new byte[] {0, 2, 0, 0});
            byte[] answer = c.readPacket();
            assertThat(errorCode(answer)).isEqualTo(1835);
            assertThat(errorMessage(answer)).isEqualTo("Malformed communication packet: the packet ends before its fields do");
            assertThat(c.closedByServer()).isTrue();
        }
    }

    @Test
    void longDataPastMaxAllowedPacketFailsTheExecuteAsOnTheShardItself() throws Exception {
        var shard = daemon.shards().get(0);
        List<String> viaShard;
        try (RawMysqlClient c = RawMysqlClient.login(shard.port(), shard.user(), shard.secret(), "app")) {
            viaShard = longDataRun(c);
        }
        List<String> viaProxy;
        try (RawMysqlClient c = RawMysqlClient.login(daemon.proxyPort(), "root", "", "app")) {
            viaProxy = longDataRun(c);
        }
        assertThat(viaProxy).hasSize(4);
        assertThat(viaProxy.get(0)).startsWith("ERR 1105 (HY000): Parameter of prepared statement which is set"
                + " through mysql_send_long_data() is longer than 'max_allowed_packet' bytes");
        assertThat(viaProxy.get(3)).isEqualTo("result set");
        assertThat(viaProxy).isEqualTo(viaShard);
    }

    /**
     * Long data past the limit and its execute, long data within it and its execute, COM_STMT_RESET,
     * long data within the limit again and its execute: each outcome as text.
     */
    private static List<String> longDataRun(RawMysqlClient c) throws IOException {
        long id = c.prepare("SELECT LENGTH(?)");
        byte[] chunk = new byte[MAX_ALLOWED_PACKET / 2 + 1000];
        Arrays.fill(chunk, (byte) 'x');
        c.sendLongData(id, 0, chunk);
        c.sendLongData(id, 0, chunk);
        List<String> outcomes = new ArrayList<>();
        outcomes.add(outcome(c, c.executeWithLongData(id, 1)));
        c.sendLongData(id, 0, chunk);
        outcomes.add(outcome(c, c.executeWithLongData(id, 1)));
        outcomes.add(outcome(c, c.command(new byte[] {0x1a, (byte) id, (byte) (id >>> 8), (byte) (id >>> 16),
                (byte) (id >>> 24)})));
        c.sendLongData(id, 0, chunk);
        outcomes.add(outcome(c, c.executeWithLongData(id, 1)));
        return outcomes;
    }

    private static String outcome(RawMysqlClient c, byte[] first) throws IOException {
        if (isErr(first)) {
            return describe(first);
        }
        c.skipResponse(first);
        return isOk(first) ? "OK" : "result set";
    }

    @Test
    void aCommandWithAWrongSequenceIdIsAnsweredByTheProxyAndEndsTheConnection() throws Exception {
        try (RawMysqlClient c = RawMysqlClient.login(daemon.proxyPort(), "root", "", "app")) {
            assertThat(isOk(c.query("BEGIN"))).isTrue();
            assertThat(isOk(c.query("UPDATE t SET v = v + 1 WHERE id = 1"))).isTrue();
            c.writePacket(3, concat((byte) 0x03, "SELECT 1"));
            byte[] answer = c.readPacket();
            // Not the shard's 1158 for a connection it dropped: the proxy answered, as a server does.
            assertThat(describe(answer)).isEqualTo("ERR 1156 (08S01): Got packets out of order");
            assertThat(c.closedByServer()).isTrue();
        }
        // The transaction the connection left was rolled back on the shard.
        try (RawMysqlClient c = RawMysqlClient.login(daemon.proxyPort(), "root", "", "app")) {
            assertThat(c.queryRows("SELECT v FROM t WHERE id = 1")).containsExactly(List.of("0"));
        }
    }

    @Test
    void failedLoginsOfAnAccountFromAHostWaitTheirTurnThenAreRefusedUntilALoginSucceeds() throws Exception {
        String host = "127.0.0.7";
        for (int i = 0; i < 2; i++) {
            assertThat(errorCode(login(host, "app", "wrong"))).isEqualTo(1045);
        }
        // The third attempt waits before its password is even checked.
        long started = System.nanoTime();
        assertThat(errorCode(login(host, "app", "wrong"))).isEqualTo(1045);
        assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(DELAY_MS * 1_000_000L);
        // Another host, and another account from this host, log in as before (their counts are their own).
        assertThat(isOk(login("127.0.0.8", "app", PASSWORD))).isTrue();
        assertThat(isOk(login(host, "root", ""))).isTrue();
        // Ten guesses at once: they are queued one delay apart, and those past the longest wait refused.
        List<RawMysqlClient> burst = new ArrayList<>();
        try {
            for (int i = 0; i < 10; i++) {
                burst.add(RawMysqlClient.connect(daemon.proxyPort(), host));
            }
            for (RawMysqlClient c : burst) {
                c.sendHandshakeResponse("app", "wrong", "");
            }
            List<Integer> codes = new ArrayList<>();
            for (RawMysqlClient c : burst) {
                codes.add(errorCode(c.followAuth("wrong")));
            }
            assertThat(codes).containsOnly(1045, 3955).contains(3955);
            assertThat(codes.stream().filter(code -> code == 1045).count()).isLessThanOrEqualTo(MAX_DELAY_MS / DELAY_MS);
        } finally {
            for (RawMysqlClient c : burst) {
                c.close();
            }
        }
        // The right password gets through once the host's turn comes, and then the host starts afresh.
        byte[] answer;
        long deadline = System.nanoTime() + 20_000_000_000L;
        do {
            answer = login(host, "app", PASSWORD);
        } while (isErr(answer) && errorCode(answer) == 3955 && System.nanoTime() < deadline);
        assertThat(isOk(answer)).as(describe(answer)).isTrue();
        assertThat(errorCode(login(host, "app", "wrong"))).isEqualTo(1045);
    }

    @Test
    void failedChangeUsersCountLikeFailedLoginsWhateverTheSessionLoggedInAs() throws Exception {
        String host = "127.0.0.10";
        for (int i = 0; i < 2; i++) {
            try (RawMysqlClient c = RawMysqlClient.connect(daemon.proxyPort(), host)) {
                assertThat(isOk(c.authenticate("app", PASSWORD, ""))).isTrue();
                // A guess at root's password: app's own successful logins do not reset root's count.
                assertThat(errorCode(c.changeUser("root", "guess", ""))).isEqualTo(1045);
                assertThat(c.closedByServer()).isTrue();
            }
        }
        long started = System.nanoTime();
        assertThat(isOk(login(host, "root", ""))).isTrue();
        assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(DELAY_MS * 1_000_000L);
        // That success forgot root's failures from this host: COM_CHANGE_USER to root goes through.
        try (RawMysqlClient c = RawMysqlClient.connect(daemon.proxyPort(), host)) {
            assertThat(isOk(c.authenticate("app", PASSWORD, ""))).isTrue();
            assertThat(isOk(c.changeUser("root", "", ""))).isTrue();
        }
    }

    @Test
    void aUserNameWithLineBreaksIsLoggedOnOneLine() throws Exception {
        Logger logger = (Logger) LoggerFactory.getLogger(FrontendHandler.class);
        ListAppender<ILoggingEvent> appender = new ListAppender<>();
        appender.start();
        logger.addAppender(appender);
        try {
            String user = "mallory\n2030-01-01T00:00:00.000Z INFO  [main] Daemon: admin\u001b[1m logged in";
            assertThat(errorCode(login("127.0.0.9", user, "x"))).isEqualTo(1045);
            List<String> lines = appender.list.stream().map(ILoggingEvent::getFormattedMessage)
                    .filter(m -> m.contains("mallory")).toList();
            assertThat(lines).singleElement().satisfies(line -> {
                assertThat(line).doesNotContain("\n", "\u001b");
                assertThat(line).contains("mallory\\n2030-01-01T00:00:00.000Z INFO  [main] Daemon: admin\\x1b[1m logged in");
            });
        } finally {
            logger.detachAppender(appender);
        }
        assertThat(isOk(login("127.0.0.9", "app", PASSWORD))).isTrue();
    }

    private static byte[] login(String fromHost, String user, String password) throws IOException {
        try (RawMysqlClient c = RawMysqlClient.connect(daemon.proxyPort(), fromHost)) {
            return c.authenticate(user, password, "");
        }
    }

    private static byte[] concat(byte command, String sql) {
        return RawMysqlClient.concat(new byte[] {command}, sql.getBytes(StandardCharsets.UTF_8));
    }
}
