package io.cleave.proxy.unique;

import io.cleave.router.keyspace.KeyType;
import io.cleave.router.unique.UniqueIndex;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

class UniqueIndexesTest {

    private static final UniqueIndex EMAIL = new UniqueIndex("gu", "users", "email", List.of("email"),
            List.of(KeyType.STRING), "id", UniqueIndex.lookupName("gu", "users", "email"), 2);

    @Test
    void aKeyBeingBuiltIsClaimedByWritesButRoutesNoRead() {
        UniqueIndexes indexes = new UniqueIndexes();
        assertThat(indexes.startBuild(EMAIL)).isNull();
        assertThat(indexes.of("gu", "users")).containsExactly(EMAIL);
        assertThat(indexes.routable(EMAIL)).isFalse();
        assertThat(indexes.buildsUnderWay()).isTrue();
        indexes.endBuild(EMAIL, true);
        assertThat(indexes.of("gu", "users")).containsExactly(EMAIL);
        assertThat(indexes.routable(EMAIL)).isTrue();
        assertThat(indexes.buildsUnderWay()).isFalse();
    }

    @Test
    void aBuildRefusedByAMoveOrFailedLeavesNoKey() {
        UniqueIndexes indexes = new UniqueIndexes();
        AtomicBoolean moving = new AtomicBoolean(true);
        indexes.movesUnderWay(moving::get);
        assertThat(indexes.startBuild(EMAIL)).contains("a move is under way");
        assertThat(indexes.of("gu", "users")).isEmpty();
        assertThat(indexes.buildsUnderWay()).isFalse();
        moving.set(false);
        assertThat(indexes.startBuild(EMAIL)).isNull();
        indexes.endBuild(EMAIL, false);
        assertThat(indexes.of("gu", "users")).isEmpty();
        assertThat(indexes.buildsUnderWay()).isFalse();
    }

    @Test
    void aBuildRefusedWhileAnotherHomesProxyForwardsLeavesNoKey() {
        UniqueIndexes indexes = new UniqueIndexes();
        java.util.concurrent.atomic.AtomicReference<String> refused = new java.util.concurrent.atomic.AtomicReference<>(
                "the other home's proxy forwards here: ");
        indexes.refuseChangesWhile(what -> refused.get() == null ? null : refused.get() + what);
        assertThat(indexes.startBuild(EMAIL)).isEqualTo("the other home's proxy forwards here: a global unique key's build");
        assertThat(indexes.of("gu", "users")).isEmpty();
        assertThat(indexes.buildsUnderWay()).isFalse();
        refused.set(null);
        assertThat(indexes.startBuild(EMAIL)).isNull();
        assertThat(indexes.of("gu", "users")).containsExactly(EMAIL);
    }

    @Test
    void aBuildAnEarlierRunLeftRefusesWritesUntilTheKeyIsDropped() {
        UniqueIndexes indexes = new UniqueIndexes();
        indexes.load(List.of(EMAIL), List.of(List.of("GU", "users", "EMAIL")));
        assertThat(indexes.unfinishedRefusal(indexes.of("gu", "users"))).contains("the build of the global unique key"
                + " email of users was interrupted").contains("DROP INDEX email ON users");
        indexes.remove(EMAIL);
        assertThat(indexes.unfinishedRefusal(List.of(EMAIL))).isNull();
    }
}
