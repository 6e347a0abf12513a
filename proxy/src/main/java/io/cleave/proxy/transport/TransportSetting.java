package io.cleave.proxy.transport;

import java.util.Arrays;
import java.util.stream.Collectors;

/** What {@code proxy.transport} asks for: one transport by name, or the best this host can run. */
public enum TransportSetting {
    AUTO("auto", null),
    EPOLL("epoll", Transport.EPOLL),
    IO_URING("io_uring", Transport.IO_URING),
    NIO("nio", Transport.NIO);

    private final String configName;
    private final Transport transport;

    TransportSetting(String configName, Transport transport) {
        this.configName = configName;
        this.transport = transport;
    }

    public String configName() {
        return configName;
    }

    /** The one transport asked for, or null for {@link #AUTO}. */
    Transport transport() {
        return transport;
    }

    /** Parses a configuration value; null when it names no setting. */
    public static TransportSetting parse(String text) {
        for (TransportSetting s : values()) {
            if (s.configName.equals(text)) {
                return s;
            }
        }
        return null;
    }

    /** The accepted values, for error messages: {@code auto, epoll, io_uring, nio}. */
    public static String choices() {
        return Arrays.stream(values()).map(TransportSetting::configName).collect(Collectors.joining(", "));
    }

    @Override
    public String toString() {
        return configName;
    }
}
