package io.cleave.manager.move;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;

/** JSON of move records, for the journal and the admin API. */
final class MoveJson {

    static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private MoveJson() {
    }

    static MoveRecord copy(MoveRecord r) {
        try {
            return JSON.readValue(JSON.writeValueAsBytes(r), MoveRecord.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
