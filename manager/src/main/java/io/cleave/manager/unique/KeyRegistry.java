package io.cleave.manager.unique;

import io.cleave.router.unique.UniqueIndex;

/** The proxy's registry of global unique keys, as a move that shards their table tells it of them. */
public interface KeyRegistry {

    /** Nothing to tell: no proxy runs (it reads the catalog when it starts). */
    KeyRegistry NONE = new KeyRegistry() {
        @Override
        public void complete(UniqueIndex index) {
        }

        @Override
        public void dropped(UniqueIndex index) {
        }
    };

    /** {@code index}'s lookup is complete and its table sharded: writes claim it, reads are routed by it. */
    void complete(UniqueIndex index);

    /** {@code index} is gone (its move was undone before its cutover). */
    void dropped(UniqueIndex index);
}
