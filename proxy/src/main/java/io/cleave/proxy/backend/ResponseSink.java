package io.cleave.proxy.backend;

import io.netty.buffer.ByteBuf;

/** Receives the frames of one command's response from a backend connection, on its event loop. */
public interface ResponseSink {

    /** One frame of the response; the sink owns {@code frame} and must release or forward it. */
    void frame(BackendConnection connection, ByteBuf frame, FrameKind kind);

    /** The response is complete; {@code tracker} holds its final status. */
    void complete(BackendConnection connection, ResponseTracker tracker);

    /** The connection broke before the response was complete. */
    void failed(BackendConnection connection, Throwable cause);

    /** The current socket read is done: a good moment to flush what was relayed. */
    default void readComplete(BackendConnection connection) {
    }
}
