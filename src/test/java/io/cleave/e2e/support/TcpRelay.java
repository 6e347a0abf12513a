package io.cleave.e2e.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay on a loopback port to {@code target}: the one way a process reaches a server, so a test can cut
 * that path (every connection reset, new ones refused) and heal it, as a network partition between the two
 * would, while the process stays reachable by everyone else. Not a partition of a host: only this path.
 */
public final class TcpRelay implements AutoCloseable {

    private final int port;
    private final int target;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile ServerSocket server;

    public TcpRelay(int target) throws IOException {
        this.target = target;
        this.port = CleaveTestHome.freePort();
        heal();
    }

    public int port() {
        return port;
    }

    /** Accepts and relays again. */
    public synchronized void heal() throws IOException {
        if (server != null) {
            return;
        }
        ServerSocket s = new ServerSocket();
        s.setReuseAddress(true);
        s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        server = s;
        Thread t = new Thread(() -> accept(s), "relay-" + port);
        t.setDaemon(true);
        t.start();
    }

    /** Resets every relayed connection and refuses new ones. */
    public synchronized void cut() throws IOException {
        ServerSocket s = server;
        server = null;
        if (s != null) {
            s.close();
        }
        for (Socket c : open) {
            try {
                c.setSoLinger(true, 0);
                c.close();
            } catch (IOException e) {
                // closed already
            }
        }
        open.clear();
    }

    private void accept(ServerSocket s) {
        while (!s.isClosed()) {
            try {
                Socket in = s.accept();
                Socket out = new Socket();
                try {
                    out.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), target), 1000);
                } catch (IOException e) {
                    in.close();
                    continue;
                }
                // A connection accepted while the relay was being cut must not outlive the cut: cut()
                // resets only those registered, so one registered after it would relay on (a primary
                // cut off from etcd renewing its lease through it). Registration and cut() exclude each other.
                synchronized (this) {
                    if (server != s) {
                        in.setSoLinger(true, 0);
                        in.close();
                        out.close();
                        continue;
                    }
                    open.add(in);
                    open.add(out);
                }
                pump(in, out);
                pump(out, in);
            } catch (IOException e) {
                // the relay was cut, or the target refused: the client sees its connection end
            }
        }
    }

    private void pump(Socket from, Socket to) {
        Thread t = new Thread(() -> {
            byte[] buffer = new byte[16384];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // cut or closed
            } finally {
                try {
                    from.close();
                    to.close();
                } catch (IOException e) {
                    // closed already
                }
                open.remove(from);
                open.remove(to);
            }
        }, "relay-pump");
        t.setDaemon(true);
        t.start();
    }

    @Override
    public void close() throws IOException {
        cut();
    }
}
