package io.cleave.proxy.transport;

import io.netty.channel.Channel;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollDomainSocketChannel;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerDomainSocketChannel;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.channel.uring.IoUring;
import io.netty.channel.uring.IoUringDomainSocketChannel;
import io.netty.channel.uring.IoUringIoHandler;
import io.netty.channel.uring.IoUringServerDomainSocketChannel;
import io.netty.channel.uring.IoUringServerSocketChannel;
import io.netty.channel.uring.IoUringSocketChannel;

/**
 * One of Netty's I/O transports: the event loops' I/O handler and the channel classes that run on
 * them. A channel only registers with loops of its own transport, so everything the proxy opens
 * (client listeners, shard connections) takes its classes from the one transport its loops use.
 */
public enum Transport {

    EPOLL("epoll") {
        @Override
        public IoHandlerFactory ioHandlerFactory() {
            return EpollIoHandler.newFactory();
        }

        @Override
        public Class<? extends ServerChannel> serverChannel() {
            return EpollServerSocketChannel.class;
        }

        @Override
        public Class<? extends Channel> channel() {
            return EpollSocketChannel.class;
        }

        @Override
        public Class<? extends ServerChannel> serverDomainChannel() {
            return EpollServerDomainSocketChannel.class;
        }

        @Override
        public Class<? extends Channel> domainChannel() {
            return EpollDomainSocketChannel.class;
        }

        @Override
        Throwable unavailabilityCause() {
            return Epoll.unavailabilityCause();
        }
    },

    /** Linux 5.1+ io_uring; Netty 4.2's transport also serves Unix domain sockets. */
    IO_URING("io_uring") {
        @Override
        public IoHandlerFactory ioHandlerFactory() {
            return IoUringIoHandler.newFactory();
        }

        @Override
        public Class<? extends ServerChannel> serverChannel() {
            return IoUringServerSocketChannel.class;
        }

        @Override
        public Class<? extends Channel> channel() {
            return IoUringSocketChannel.class;
        }

        @Override
        public Class<? extends ServerChannel> serverDomainChannel() {
            return IoUringServerDomainSocketChannel.class;
        }

        @Override
        public Class<? extends Channel> domainChannel() {
            return IoUringDomainSocketChannel.class;
        }

        @Override
        Throwable unavailabilityCause() {
            return IoUring.unavailabilityCause();
        }
    },

    /** The JDK's selector: everywhere, but without Unix domain sockets here. */
    NIO("nio") {
        @Override
        public IoHandlerFactory ioHandlerFactory() {
            return NioIoHandler.newFactory();
        }

        @Override
        public Class<? extends ServerChannel> serverChannel() {
            return NioServerSocketChannel.class;
        }

        @Override
        public Class<? extends Channel> channel() {
            return NioSocketChannel.class;
        }

        @Override
        public Class<? extends ServerChannel> serverDomainChannel() {
            return null;
        }

        @Override
        public Class<? extends Channel> domainChannel() {
            return null;
        }

        @Override
        Throwable unavailabilityCause() {
            return null;
        }
    };

    private final String configName;

    Transport(String configName) {
        this.configName = configName;
    }

    /** The name in the configuration and in logs ({@code epoll}, {@code io_uring}, {@code nio}). */
    public String configName() {
        return configName;
    }

    public abstract IoHandlerFactory ioHandlerFactory();

    public abstract Class<? extends ServerChannel> serverChannel();

    public abstract Class<? extends Channel> channel();

    /** Null when this transport has no Unix domain sockets. */
    public abstract Class<? extends ServerChannel> serverDomainChannel();

    /** Null when this transport has no Unix domain sockets. */
    public abstract Class<? extends Channel> domainChannel();

    public boolean hasDomainSockets() {
        return domainChannel() != null;
    }

    /** Why this transport cannot run in this process (no native library, kernel too old, a seccomp filter), or null. */
    abstract Throwable unavailabilityCause();

    @Override
    public String toString() {
        return configName;
    }
}
