package io.cleave.manager.standby.relay;

import io.cleave.manager.config.HostPort;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The standby's relay on loopback sockets: a stand-in for the primary's proxy instead of a real one. */
class PrimaryProxyRelayTest {

    private static final byte[] V2_SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

    private PrimaryProxyRelay relay;

    @AfterEach
    void stop() {
        if (relay != null) {
            relay.close();
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @Test
    void aClientIsRelayedBehindAVersion2HeaderNamingItsOwnAddressAndCounted() throws Exception {
        try (ServerSocket primary = new ServerSocket(0, 5, java.net.InetAddress.getLoopbackAddress())) {
            HostPort listen = new HostPort("127.0.0.1", freePort());
            relay = new PrimaryProxyRelay(listen);
            relay.start();
            relay.target(new HostPort("127.0.0.1", primary.getLocalPort()));
            CompletableFuture<byte[]> header = CompletableFuture.supplyAsync(() -> {
                try (Socket s = primary.accept()) {
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    byte[] fixed = new byte[16];
                    in.readFully(fixed);
                    byte[] body = new byte[((fixed[14] & 0xff) << 8) | (fixed[15] & 0xff)];
                    in.readFully(body);
                    OutputStream out = s.getOutputStream();
                    out.write("greeting".getBytes(StandardCharsets.US_ASCII));
                    byte[] echo = new byte[5];
                    in.readFully(echo);
                    out.write(echo);
                    out.flush();
                    byte[] all = new byte[fixed.length + body.length];
                    System.arraycopy(fixed, 0, all, 0, fixed.length);
                    System.arraycopy(body, 0, all, fixed.length, body.length);
                    return all;
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            try (Socket client = new Socket()) {
                client.bind(new InetSocketAddress("127.0.0.9", 0));
                client.connect(new InetSocketAddress("127.0.0.1", listen.port()), 5_000);
                client.setSoTimeout(10_000);
                InputStream in = client.getInputStream();
                assertThat(new String(in.readNBytes(8), StandardCharsets.US_ASCII)).isEqualTo("greeting");
                client.getOutputStream().write("hello".getBytes(StandardCharsets.US_ASCII));
                assertThat(new String(in.readNBytes(5), StandardCharsets.US_ASCII)).isEqualTo("hello");

                byte[] h = header.get(10, TimeUnit.SECONDS);
                assertThat(java.util.Arrays.copyOf(h, 12)).isEqualTo(V2_SIGNATURE);
                assertThat(h[12]).as("version 2, PROXY").isEqualTo((byte) 0x21);
                assertThat(h[13]).as("TCP over IPv4").isEqualTo((byte) 0x11);
                assertThat(java.util.Arrays.copyOfRange(h, 16, 20)).as("the client's own address")
                        .containsExactly(127, 0, 0, 9);
                int sourcePort = ((h[24] & 0xff) << 8) | (h[25] & 0xff);
                assertThat(sourcePort).isEqualTo(client.getLocalPort());
                int destinationPort = ((h[26] & 0xff) << 8) | (h[27] & 0xff);
                assertThat(destinationPort).isEqualTo(listen.port());

                RelayReport r = relay.report();
                assertThat(r.state()).isEqualTo("relaying");
                assertThat(r.relayed()).isEqualTo(1);
                assertThat(r.bytesToPrimary()).isEqualTo(5);
                assertThat(r.bytesToClients()).isEqualTo(13);
                assertThat(r.describe()).contains("relays 127.0.0.1:" + listen.port() + " to the primary's proxy 127.0.0.1:"
                        + primary.getLocalPort());
                // The stand-in closed its side once it answered: the relay closes the client's.
                assertThat(in.read()).isEqualTo(-1);
                awaitNoneOpen();
            }
        }
    }

    @Test
    void aPrimaryProxyThatCannotBeReachedGetsTheClientAnErrorPacketAndStatusSaysWhy() throws Exception {
        HostPort listen = new HostPort("127.0.0.1", freePort());
        relay = new PrimaryProxyRelay(listen);
        relay.start();
        assertThat(errorOnConnect(listen)).contains("does not know its primary's proxy address yet");
        assertThat(relay.report().state()).isEqualTo("refusing");

        int closed = freePort();
        relay.target(new HostPort("127.0.0.1", closed));
        assertThat(errorOnConnect(listen)).contains("the primary's proxy at 127.0.0.1:" + closed
                + " is not reachable from this standby");
        RelayReport r = relay.report();
        assertThat(r.state()).isEqualTo("refusing");
        assertThat(r.problem()).contains("not reachable");
        assertThat(r.refused()).isEqualTo(2);
        awaitNoneOpen();
        assertThat(r.describe()).startsWith("refuses clients on 127.0.0.1:" + listen.port());
    }

    @Test
    void aPrimaryProxyKnownNotToBeReachableIsNotTriedAndTheClientToldWhy() throws Exception {
        try (ServerSocket primary = new ServerSocket(0, 5, java.net.InetAddress.getLoopbackAddress())) {
            HostPort listen = new HostPort("127.0.0.1", freePort());
            relay = new PrimaryProxyRelay(listen);
            relay.start();
            relay.target(new HostPort("127.0.0.1", primary.getLocalPort()), "it listens on the loopback of another host");
            assertThat(errorOnConnect(listen)).isEqualTo("this Cleave home is a standby, and it listens on the loopback"
                    + " of another host");
            assertThat(relay.report().problem()).isEqualTo("it listens on the loopback of another host");
            primary.setSoTimeout(200);
            assertThatThrownBy(primary::accept).as("no connection tried").isInstanceOf(java.net.SocketTimeoutException.class);
            relay.target(new HostPort("127.0.0.1", primary.getLocalPort()), null);
            assertThat(relay.report().state()).isEqualTo("relaying");
        }
    }

    @Test
    void stoppingGivesThePortUpAndAStartTakesItAgain() throws Exception {
        HostPort listen = new HostPort("127.0.0.1", freePort());
        relay = new PrimaryProxyRelay(listen);
        relay.start();
        relay.stop(true);
        assertThat(relay.listening()).isFalse();
        assertThat(relay.report().state()).isEqualTo("stopped");
        try (ServerSocket taken = new ServerSocket()) {
            taken.setReuseAddress(true);
            taken.bind(new InetSocketAddress("127.0.0.1", listen.port()));
        }
        relay.start();
        assertThat(errorOnConnect(listen)).contains("does not know");
    }

    @Test
    void aClientThatGoesAwayMidStatementClosesItsConnectionToThePrimarysProxy() throws Exception {
        // The primary's proxy ends the session (rolling its transaction back) only when its connection closes.
        try (ServerSocket primary = new ServerSocket(0, 5, java.net.InetAddress.getLoopbackAddress())) {
            HostPort listen = new HostPort("127.0.0.1", freePort());
            relay = new PrimaryProxyRelay(listen);
            relay.start();
            relay.target(new HostPort("127.0.0.1", primary.getLocalPort()));
            CompletableFuture<Integer> afterStatement = CompletableFuture.supplyAsync(() -> {
                try (Socket s = primary.accept()) {
                    s.setSoTimeout(10_000);
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    byte[] fixed = new byte[16];
                    in.readFully(fixed);
                    in.readFully(new byte[((fixed[14] & 0xff) << 8) | (fixed[15] & 0xff)]);
                    in.readFully(new byte[9]);
                    // The statement is never answered: the client leaves while it runs.
                    return in.read();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            try (Socket client = new Socket("127.0.0.1", listen.port())) {
                client.getOutputStream().write("UPDATE t;".getBytes(StandardCharsets.US_ASCII));
                client.getOutputStream().flush();
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (relay.report().bytesToPrimary() < 9) {
                    assertThat(System.nanoTime()).as("the statement reached the primary's side").isLessThan(deadline);
                    Thread.sleep(10);
                }
            }
            assertThat(afterStatement.get(10, TimeUnit.SECONDS)).as("the primary's side reads the end of its connection")
                    .isEqualTo(-1);
            awaitNoneOpen();
        }
    }

    /** The relay counts a connection open until its loop has seen it close, a moment after the client did. */
    private void awaitNoneOpen() throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (relay.report().active() != 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(relay.report().active()).isZero();
    }

    /** Connects and reads the one packet the relay answers with: an ERR packet of sequence 0, code 2003. */
    private static String errorOnConnect(HostPort listen) throws Exception {
        try (Socket client = new Socket("127.0.0.1", listen.port())) {
            client.setSoTimeout(10_000);
            DataInputStream in = new DataInputStream(client.getInputStream());
            byte[] head = new byte[4];
            in.readFully(head);
            int length = (head[0] & 0xff) | (head[1] & 0xff) << 8 | (head[2] & 0xff) << 16;
            assertThat(head[3]).as("sequence").isZero();
            byte[] payload = new byte[length];
            in.readFully(payload);
            assertThat(payload[0] & 0xff).as("ERR").isEqualTo(0xff);
            assertThat((payload[1] & 0xff) | (payload[2] & 0xff) << 8).isEqualTo(2003);
            assertThat(new String(payload, 3, 6, StandardCharsets.US_ASCII)).isEqualTo("#HY000");
            assertThat(in.read()).as("closed after the error").isEqualTo(-1);
            return new String(payload, 9, payload.length - 9, StandardCharsets.UTF_8);
        }
    }
}
