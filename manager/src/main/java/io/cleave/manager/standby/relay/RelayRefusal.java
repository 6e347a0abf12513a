package io.cleave.manager.standby.relay;

import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;

/**
 * What a client of the standby's port gets when its connection cannot be relayed: a MySQL error packet in place of
 * the server's greeting (as a server that refuses a host answers), then the connection closes. Error 2003 (can't
 * connect), which drivers treat as a connection that may work on another try or another host.
 */
final class RelayRefusal {

    static final int ERROR_CODE = 2003;

    private RelayRefusal() {
    }

    static void send(Channel client, String message) {
        ErrPacket error = new ErrPacket(ERROR_CODE, "HY000", message);
        ByteBuf frame = Frames.begin(client.alloc(), 16 + message.length() * 3);
        error.write(frame);
        client.writeAndFlush(Frames.finish(frame, 0)).addListener(ChannelFutureListener.CLOSE);
    }
}
