package io.cleave.manager.daemon;

import io.cleave.manager.unique.KeyRegistry;
import io.cleave.router.unique.UniqueIndex;

import java.util.function.Supplier;

/** The running proxy's registry of global unique keys; nothing to tell while no proxy runs (it reads the catalog at start). */
final class ProxyKeyRegistry implements KeyRegistry {

    private final Supplier<ProxyService> proxy;

    ProxyKeyRegistry(Supplier<ProxyService> proxy) {
        this.proxy = proxy;
    }

    @Override
    public void complete(UniqueIndex index) {
        ProxyService p = proxy.get();
        if (p != null) {
            p.uniqueKeyComplete(index);
        }
    }

    @Override
    public void dropped(UniqueIndex index) {
        ProxyService p = proxy.get();
        if (p != null) {
            p.uniqueKeyDropped(index);
        }
    }
}
