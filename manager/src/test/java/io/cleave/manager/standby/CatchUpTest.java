package io.cleave.manager.standby;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CatchUpTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void aRequestCarriesEachShardsPositionAndItsTime() throws Exception {
        CatchUp c = JSON.readValue("{\"gtids\": {\"0\": \"0-1000-42\", \"1\": \"\"}, \"waitMillis\": 5000}", CatchUp.class);
        assertThat(c.gtids()).isEqualTo(Map.of(0, "0-1000-42", 1, ""));
        assertThat(c.waitMillis()).isEqualTo(5000);
    }

    @Test
    void aMalformedRequestIsRefusedBeforeAnyShardIsAsked() {
        assertThatThrownBy(() -> new CatchUp(null, 5000)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no GTID positions");
        assertThatThrownBy(() -> new CatchUp(Map.of(0, "0-1000-42'; DROP"), 5000))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not a GTID position");
        assertThatThrownBy(() -> new CatchUp(Map.of(0, "0-1000-42"), 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("waitMillis must be positive");
        // What the admin API reads: Jackson hands the refusal on, and the API answers 400 with it.
        assertThatThrownBy(() -> JSON.readValue("{\"waitMillis\": 5000}", CatchUp.class))
                .hasMessageContaining("no GTID positions");
    }
}
