package io.cleave.manager.daemon;

/**
 * The seam where the proxy module plugs into the daemon: {@link Daemon} calls {@link #create}
 * after all shards are ready, then {@link ProxyService#start()}, and closes the proxy before it
 * stops the shards.
 */
@FunctionalInterface
public interface ProxyFactory {

    ProxyService create(ProxyContext context);
}
