package io.cleave.manager.instance;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ServerDefaultsTest {

    /** The real option table of the embedded MariaDB 11.4.5 (its --no-defaults --verbose --help). */
    static ServerDefaults mariadb114() {
        try (var in = ServerDefaultsTest.class.getResourceAsStream("/server-help/mariadb-11.4.5.txt")) {
            return ServerDefaults.parse(new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void readsTheOptionTableOfMariadb114() {
        ServerDefaults d = mariadb114();
        assertThat(d.known()).isTrue();
        assertThat(d.defaultOf("innodb_log_file_size")).contains("100663296");
        assertThat(d.isDefault("innodb_log_file_size", "96M")).isTrue();
        assertThat(d.isDefault("innodb_adaptive_flushing", "ON")).as("TRUE is ON").isTrue();
        assertThat(d.isDefault("innodb_doublewrite", "ON")).isTrue();
        assertThat(d.isDefault("innodb_flush_method", "o_direct")).isTrue();
        assertThat(d.isDefault("innodb_io_capacity", "2500")).isFalse();
        assertThat(d.isDefault("bind_address", "127.0.0.1")).as("(No default value)").isFalse();
        assertThat(d.has("innodb_buffer_pool_instances")).as("gone since 10.6").isFalse();
        assertThat(d.has("innodb_use_atomic_writes")).isTrue();
        assertThat(d.has("character_set_collations")).isTrue();
        assertThat(d.defaultOf("character_set_collations")).contains("");
    }

    @Test
    void withoutATableEverythingIsKnownAndNothingIsDefault() {
        ServerDefaults d = ServerDefaults.parse("mysqld  Ver 8.4.3\nSome error\n");
        assertThat(d.known()).isFalse();
        assertThat(d.unknownReason()).contains("its --verbose --help printed no table of variables");
        assertThat(d.has("anything")).isTrue();
        assertThat(d.isDefault("innodb_io_capacity", "200")).isFalse();
    }
}
