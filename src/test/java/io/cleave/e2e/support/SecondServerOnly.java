package io.cleave.e2e.support;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A {@link ServerMatrix} class the embedded server leaves to the second server when the test run
 * has one (the e2e module's failsafe executions exclude the tag there): another IT covers its
 * embedded case already, so running it twice would only cost time. Without a second server (or
 * with {@code -Dservers=embedded}) it runs on the embedded server as any class does.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Tag(TestServer.SECOND_ONLY)
public @interface SecondServerOnly {
}
