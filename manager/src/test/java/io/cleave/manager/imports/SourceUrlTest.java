package io.cleave.manager.imports;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SourceUrlTest {

    @Test
    void anUrlGivesTheAccountTheServerAndTheDatabase() {
        SourceUrl u = SourceUrl.parse("mysql://app:s3cr%40t%3A%2F@db1.example:3307/shop");
        assertThat(u.user()).isEqualTo("app");
        assertThat(u.password()).isEqualTo("s3cr@t:/");
        assertThat(u.host()).isEqualTo("db1.example");
        assertThat(u.port()).isEqualTo(3307);
        assertThat(u.database()).isEqualTo("shop");
        assertThat(SourceUrl.parse("mysql://app:pw@db1/shop").port()).isEqualTo(SourceUrl.DEFAULT_PORT);
        assertThat(SourceUrl.parse("mysql://app:p+w@db1/shop").password()).as("a plus is a plus").isEqualTo("p+w");
    }

    @Test
    void whatIsShownAndJournaledNeverHoldsThePassword() {
        SourceUrl u = SourceUrl.parse("mysql://app:hunter2@10.0.0.5:3306/shop");
        assertThat(u.label()).isEqualTo("mysql://app@10.0.0.5:3306/shop");
        assertThat(u.toString()).doesNotContain("hunter2");
        assertThat(u.endpoint(4).toString()).doesNotContain("hunter2");
        assertThat(SourceUrl.parse(u.secretForm())).as("the state file's form reads back").isEqualTo(u);
    }

    @Test
    void aMalformedUrlSaysWhatOneLooksLike() {
        assertThatThrownBy(() -> SourceUrl.parse("app:pw@db1/shop")).hasMessageContaining("mysql://USER:PASSWORD@HOST:PORT/DATABASE");
        assertThatThrownBy(() -> SourceUrl.parse("mysql://db1/shop")).hasMessageContaining("the account (USER:PASSWORD@) is missing");
        assertThatThrownBy(() -> SourceUrl.parse("mysql://app:pw@db1")).hasMessageContaining("the database (/DATABASE) is missing");
        assertThatThrownBy(() -> SourceUrl.parse("mysql://app:pw@db1:x/shop")).hasMessageContaining("'x' is not a port");
    }
}
