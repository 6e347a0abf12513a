package io.cleave.proxy.frontend;

import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.MalformedPacketException;
import io.cleave.proxy.protocol.PacketTooLargeException;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.server.LoopResources;
import io.cleave.proxy.server.ProxyRuntime;
import io.cleave.proxy.session.Charset;
import io.netty.buffer.ByteBuf;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One logged-in client: reads its commands one at a time ({@link CommandReader}), runs each with
 * its handler ({@link CommandHandlers}) and, when the command has ended, the next. The session's
 * state is in {@link Session}, a command's in its {@link Command}. Everything happens on the
 * client channel's event loop.
 */
final class ClientSession implements Command.End {

    private static final Logger log = LoggerFactory.getLogger(ClientSession.class);

    private final Session session;
    private final CommandReader reader;
    private final CommandHandlers handlers;
    private final SessionParticipant participant;
    /** Made once: the next command when a cut's window closes (see {@link #finished}). */
    private final Runnable nextAfterWindow = this::nextAfterWindow;
    private boolean closed;

    ClientSession(ProxyRuntime runtime, LoopResources loop, ClientOutput output, long connectionId,
                  SessionAccount account, Capabilities capabilities, Charset charset, LoginChallenge challenge) {
        this.session = new Session(runtime, loop, output, connectionId, account, capabilities, charset);
        this.reader = new CommandReader(session, this);
        this.participant = new SessionParticipant(session, reader);
        this.handlers = new CommandHandlers(session, challenge, participant);
        runtime.cutover().register(participant);
    }

    /**
     * Login succeeded: the session starts in {@code database}. One that no shard has (1049), or
     * that the account may not use (1044), is refused and the connection closed, as a server
     * answers the handshake.
     */
    void start(String database) {
        session.start(database);
        LoginSchema.admit(session, database, refused -> {
            if (refused != null) {
                fatal(null, refused);
            } else {
                loggedIn();
            }
        });
    }

    private void loggedIn() {
        session.output().ok(session.status());
        session.output().flush();
    }

    void onFrame(ByteBuf frame) {
        if (closed) {
            frame.release();
        } else if (handlers.changeUser().awaitingClient()) {
            handlers.changeUser().onPacket(frame);
        } else {
            readAndRun(frame);
        }
    }

    /** Runs the command {@code frame} completes, or with null, the next one that waited. */
    private void readAndRun(ByteBuf frame) {
        Command command;
        try {
            command = frame != null ? reader.add(frame) : reader.next();
        } catch (PacketTooLargeException e) {
            fatal(null, new ErrPacket(1153, "08S01", e.getMessage()));
            return;
        } catch (CommandReader.OutOfOrder e) {
            fatal(null, new ErrPacket(1156, "08S01", e.getMessage()));
            return;
        } catch (MalformedPacketException e) {
            fatal(null, new ErrPacket(1835, "08S01", "Malformed communication packet: " + MalformedPacketException.reason(e)));
            return;
        }
        if (command != null) {
            run(command);
        }
    }

    private void run(Command command) {
        session.tracked().commandStarted();
        try {
            handlers.handle(command);
        } catch (MalformedPacketException | IndexOutOfBoundsException e) {
            if (!command.ended()) {
                command.fatal(1835, "08S01", "Malformed communication packet: " + MalformedPacketException.reason(e));
            }
        } catch (RuntimeException e) {
            log.warn("connection {}: command failed in the proxy", session.connectionId(), e);
            if (!command.ended()) {
                // The exception's text is the proxy's business (class names, buffer indexes), not the client's.
                command.error(1105, "HY000", "proxy error: the proxy failed to run this command ("
                        + e.getClass().getSimpleName() + "); see the proxy log for connection " + session.connectionId());
            }
        }
    }

    @Override
    public void finished(Command command) {
        command.release();
        session.tracked().commandEnded();
        if (closed) {
            // The client left while this command ran: what the command took since goes back too.
            session.connections().dropAll();
            return;
        }
        // While a cut's snapshots are being opened, the answer waits (ClientOutput), and so does a
        // command the client sent behind it: it could commit what a snapshot already opened sees
        // while one still opening misses the transaction the answer acknowledged.
        if (session.runtime().cuts().holdAnswer(session.loop().loop(), nextAfterWindow)) {
            return;
        }
        readAndRun(null);
    }

    private void nextAfterWindow() {
        if (!closed) {
            readAndRun(null);
        }
    }

    @Override
    public void fatal(Command command, ErrPacket error) {
        session.metrics().error(error.errorCode());
        session.output().error(error);
        close();
        if (command != null) {
            command.release();
        }
        // The session goes no further: what it borrowed goes back now, not when the channel's
        // close comes round (and if the client had left already, nothing else would sweep).
        session.connections().dropAll();
    }

    @Override
    public void close() {
        closed = true;
        session.output().close();
    }

    void clientWritable() {
        session.connections().resume();
    }

    /**
     * The client is gone, however it went. An open transaction dies with it, as on a real server:
     * closing its backend connections rolls it back (and drops temporary tables, locks, cursors).
     * A statement in flight loses its connection too: nobody is left to read its answer.
     */
    void clientClosed() {
        closed = true;
        session.runtime().cutover().unregister(participant);
        reader.close();
        session.closed();
    }
}
