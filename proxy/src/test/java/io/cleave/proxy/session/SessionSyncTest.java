package io.cleave.proxy.session;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class SessionSyncTest {

    private static final Charset UTF8 = new Charset("utf8mb4", "utf8mb4_general_ci");
    private final SessionSettings fresh = SessionSettings.initial(null, UTF8);

    @Test
    void equalSettingsNeedNothing() {
        SessionSettings a = fresh.withSchema("shop").withSystemVariable("sql_mode", "'ANSI'");
        SessionSettings b = fresh.withSchema("shop").withSystemVariable("sql_mode", "'ANSI'");
        assertThat(SessionSync.between(a, b).isNeeded()).isFalse();
        assertThat(SessionSync.between(a, a)).isSameAs(SessionSync.NONE);
    }

    @Test
    void schemaGoesThroughInitDb() {
        SessionSync sync = SessionSync.between(fresh, fresh.withSchema("shop"));
        assertThat(sync.initDb()).isEqualTo("shop");
        assertThat(sync.setStatement()).isNull();
    }

    @Test
    void everythingElseInOneSet() {
        SessionSettings target = fresh.withCharset(new Charset("latin1", null)).withAutocommit(false)
                .withSystemVariable("time_zone", "'+02:00'").withUserVariable("w", "7");
        assertThat(SessionSync.between(fresh, target).setStatement())
                .isEqualTo("SET NAMES latin1, autocommit=0, @@session.time_zone='+02:00', @w=7");
    }

    @Test
    void leftoversOfAnEarlierSessionAreReset() {
        SessionSettings earlier = fresh.withSystemVariable("sql_mode", "'ANSI'").withUserVariable("x", "1");
        assertThat(SessionSync.between(earlier, fresh).setStatement())
                .isEqualTo("SET @@session.sql_mode=DEFAULT, @x=NULL");
    }

    @Test
    void userVariableNamesAreQuotedWhenTheyNeedIt() {
        SessionSettings target = fresh.withUserVariable("q q", "1").withUserVariable("a`b", "'x'")
                .withUserVariable("plain_1", "2");
        assertThat(SessionSync.between(fresh, target).setStatement())
                .isEqualTo("SET @`q q`=1, @`a``b`='x', @plain_1=2");
        assertThat(SessionSync.between(target, fresh).setStatement())
                .isEqualTo("SET @`q q`=NULL, @`a``b`=NULL, @plain_1=NULL");
    }

    @Test
    void setNamesForgetsExplicitCharsetVariables() {
        SessionSettings s = fresh.withSystemVariable("character_set_results", "NULL")
                .withCharset(new Charset("utf8mb4", null));
        assertThat(s.systemVariables()).doesNotContainKey("character_set_results");
    }

    @Test
    void setNamesGivesTheCharsetVariablesTheirValuesInsteadOfTheGlobalDefaults() {
        SessionSettings explicit = fresh.withCharset(new Charset("latin1", null))
                .withSystemVariable("character_set_results", "NULL");
        // Back to the session's own character set: NAMES sets character_set_results, DEFAULT would
        // give it the server's global value instead.
        assertThat(SessionSync.between(explicit, fresh).setStatement()).isEqualTo("SET NAMES utf8mb4 COLLATE utf8mb4_general_ci");
        assertThat(SessionSync.between(explicit, explicit.withCharset(new Charset("latin1", null))).setStatement())
                .isEqualTo("SET NAMES latin1");
        assertThat(SessionSync.between(fresh, explicit).setStatement())
                .isEqualTo("SET NAMES latin1, @@session.character_set_results=NULL");
    }
}
