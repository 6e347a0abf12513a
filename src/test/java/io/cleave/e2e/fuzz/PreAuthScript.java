package io.cleave.e2e.fuzz;

import io.cleave.e2e.support.RawMysqlClient;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * A connection that has not logged in, given what a scanner, a broken client or an attacker
 * sends: noise, HTTP, damaged handshake responses, frames announcing more than they carry,
 * oversized headers, an SSLRequest followed by junk, wrong passwords, or nothing at all. The
 * proxy must end each such connection itself, with an error packet (at the latest when the login
 * timeout passes). A damaged response that still logs in is ended with COM_QUIT.
 */
final class PreAuthScript {

    private final Random random;
    private final Mutator mutator;
    private final FuzzConnection conn;

    PreAuthScript(Random random, FuzzConnection conn) {
        this.random = random;
        this.mutator = new Mutator(random);
        this.conn = conn;
    }

    /** Sends this script's input; returns whether the connection ended up logged in (the caller may go on with it). */
    boolean run() throws IOException {
        RawMysqlClient client = conn.client();
        boolean early = random.nextInt(10) == 0;
        if (!early) {
            client.readHandshake();
        }
        switch (random.nextInt(10)) {
            case 0:
                conn.sendRaw(mutator.noise(200));
                break;
            case 1:
                conn.send(1, mutator.noise(300));
                break;
            case 2:
            case 3:
                byte[] response = client.handshakeResponsePayload("root", random.nextBoolean() ? "" : "pw",
                        random.nextBoolean() ? "fuzz" : "", 45);
                conn.send(random.nextInt(4) == 0 ? mutator.wrongSequence(1) : 1, mutator.mutate(response));
                break;
            case 4:
                conn.sendRaw(("GET /metrics HTTP/1.1\r\nHost: localhost\r\nUser-Agent: scanner\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                break;
            case 5:
                conn.sendRaw(new byte[] {(byte) 0xff, (byte) 0xff, (byte) random.nextInt(256), 1, 0x0f, 0, 0, 0});
                break;
            case 6:
                // A frame that announces more than it carries; the rest never comes.
                byte[] part = mutator.noise(50);
                byte[] frame = new byte[4 + part.length];
                int announced = part.length + 1 + random.nextInt(1000);
                frame[0] = (byte) announced;
                frame[1] = (byte) (announced >>> 8);
                frame[3] = 1;
                System.arraycopy(part, 0, frame, 4, part.length);
                conn.sendRaw(frame);
                break;
            case 7:
                // An SSLRequest, then junk where the TLS ClientHello belongs.
                byte[] ssl = new byte[32];
                ssl[0] = (byte) 0x00;
                ssl[1] = (byte) (0x02 | 0x08);
                ssl[2] = (byte) 0x0a;
                conn.send(1, ssl);
                conn.sendRaw(mutator.noise(100));
                break;
            case 8:
                conn.send(1, client.handshakeResponsePayload(random.nextBoolean() ? "root" : "nobody", "wrong", "", 45));
                break;
            default:
                // Nothing at all: the login timeout ends it.
                if (early) {
                    client.readHandshake();
                }
                break;
        }
        return awaitEnd();
    }

    /** Reads until the proxy closes, or until a (damaged but accepted) login succeeded. */
    private boolean awaitEnd() throws IOException {
        while (!conn.serverClosed()) {
            byte[] p = conn.next();
            if (p != null && RawMysqlClient.isOk(p)) {
                return true;
            }
        }
        return false;
    }
}
