package io.cleave.manager.instance;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/** Tests that plan on a fresh fake host ({@link PlannerFixture}) under their own temp directory. */
abstract class FakeHostTest {

    @TempDir
    Path tmp;

    PlannerFixture f;

    @BeforeEach
    void fakeHost() {
        f = new PlannerFixture(tmp);
    }
}
