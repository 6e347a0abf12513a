package io.cleave.proxy.transport;

/**
 * The transport the proxy runs on and, when {@code auto} passed over a better one, why (for the log).
 *
 * @param passedOver null, or "io_uring: <cause>" for each transport tried before this one
 */
public record TransportChoice(Transport transport, String passedOver) {

    public boolean fellBack() {
        return passedOver != null;
    }
}
