package io.cleave.manager.config;

import org.junit.jupiter.api.Test;

import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class ListenCheckTest {

    @Test
    void aTakenPortIsToldApartFromAnAddressThisHostDoesNotHave() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
             ServerSocket again = new ServerSocket()) {
            BindException inUse = catchThrowableOfType(() -> again.bind(new InetSocketAddress(
                    InetAddress.getLoopbackAddress(), taken.getLocalPort())), BindException.class);
            assertThat(ListenCheck.bindRefusal("127.0.0.1", taken.getLocalPort(), "the admin API", inUse))
                    .startsWith("port " + taken.getLocalPort() + " on 127.0.0.1 for the admin API is taken by another process");
        }
        try (ServerSocket elsewhere = new ServerSocket()) {
            // 192.0.2.0/24 is reserved for documentation: no interface of a test machine has it.
            BindException notHere = catchThrowableOfType(() -> elsewhere.bind(new InetSocketAddress(
                    InetAddress.getByName("192.0.2.7"), 0)), BindException.class);
            assertThat(ListenCheck.bindRefusal("192.0.2.7", 6034, "the admin API", notHere))
                    .startsWith("the admin API cannot listen on 192.0.2.7: no network interface of this host has that address");
        }
    }
}
