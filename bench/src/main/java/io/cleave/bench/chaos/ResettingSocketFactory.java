package io.cleave.bench.chaos;

import com.mysql.cj.conf.PropertySet;
import com.mysql.cj.protocol.StandardSocketFactory;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;

/**
 * Connector/J's socket factory, with sockets that can vanish the way a crashed client's do: once
 * armed, the socket sends the next command the driver flushes and then closes with a TCP reset
 * (no COM_QUIT, no orderly close), before any answer can arrive. Named by class in the URL
 * ({@code socketFactory=...}); the socket a connection got is picked up on the thread that
 * opened it with {@link #lastOnThisThread}.
 */
public final class ResettingSocketFactory extends StandardSocketFactory {
    private static final ThreadLocal<ResettableSocket> LAST = new ThreadLocal<>();

    @Override
    protected Socket createSocket(PropertySet props) {
        ResettableSocket socket = new ResettableSocket();
        LAST.set(socket);
        return socket;
    }

    /** The socket the last connection opened on this thread got. */
    public static ResettableSocket lastOnThisThread() {
        return LAST.get();
    }

    /** A socket that closes with a reset right after the next command it sends, once armed. */
    public static final class ResettableSocket extends Socket {
        private volatile boolean armed;
        private volatile boolean reset;
        private OutputStream wrapped;

        /** The next command flushed goes out, then the socket resets. */
        public void resetAfterNextCommand() {
            armed = true;
        }

        /** Whether it did. */
        public boolean wasReset() {
            return reset;
        }

        @Override
        public synchronized OutputStream getOutputStream() throws IOException {
            if (wrapped == null) {
                wrapped = new FilterOutputStream(super.getOutputStream()) {
                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        out.write(b, off, len);
                    }

                    @Override
                    public void flush() throws IOException {
                        out.flush();
                        if (armed) {
                            armed = false;
                            reset = true;
                            setSoLinger(true, 0);
                            close();
                        }
                    }
                };
            }
            return wrapped;
        }
    }
}
