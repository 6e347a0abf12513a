package io.cleave.e2e.support;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test class the second server of the test run (Debian's MariaDB 10.11 in scripts/test) runs
 * too, beside the embedded one: the representative subset of lifecycle, proxy, routing,
 * cross-shard transactions, deadlocks and moves. {@code -Dservers=all} runs every class there.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(TestServer.MATRIX)
public @interface ServerMatrix {
}
