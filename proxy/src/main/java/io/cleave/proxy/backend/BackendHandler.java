package io.cleave.proxy.backend;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.io.IOException;

/** Feeds an authenticated backend connection's frames to its queued responses. */
final class BackendHandler extends ChannelInboundHandlerAdapter {

    private final BackendConnection connection;

    BackendHandler(BackendConnection connection) {
        this.connection = connection;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        connection.onFrame((ByteBuf) msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        connection.onReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        connection.fail(new IOException("lost connection to shard " + connection.shard()));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        connection.fail(cause);
    }
}
