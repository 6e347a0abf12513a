package io.cleave.router.unique;

import io.cleave.router.sql.ast.Ddl;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.parse.SqlParser;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Which key an ALTER TABLE adds without the sharding column (here {@code cust_id}), and how the server will name it. */
class GlobalKeyAlterTest {

    private static GlobalKeyAlter alter(String sql) {
        TokenBuffer tokens = new TokenBuffer();
        Ddl.AlterTable alter = (Ddl.AlterTable) SqlParser.parse(sql.getBytes(StandardCharsets.UTF_8), SqlMode.DEFAULT, tokens);
        return GlobalKeyAlter.of(alter, "cust_id", tokens);
    }

    @Test
    void everyFormOfAddingAUniqueOrPrimaryKeyIsRead() {
        assertThat(alter("ALTER TABLE orders ADD UNIQUE (email)").key().name()).isNull();
        assertThat(alter("ALTER TABLE orders ADD UNIQUE KEY `k` USING BTREE (`email`, b(10) DESC) COMMENT 'x'").key())
                .satisfies(k -> assertThat(k.name()).isEqualTo("k"))
                .satisfies(k -> assertThat(k.columns()).containsExactly("email", "b"));
        assertThat(alter("ALTER TABLE orders ADD CONSTRAINT c1 UNIQUE INDEX (email)").key().name()).isEqualTo("c1");
        // The index's own name wins over the constraint's, as the server names it.
        assertThat(alter("ALTER TABLE orders ADD CONSTRAINT c2 UNIQUE KEY k2 (email)").key().name()).isEqualTo("k2");
        assertThat(alter("ALTER TABLE orders ADD CONSTRAINT UNIQUE (email)").key().name()).isNull();
        assertThat(alter("ALTER TABLE orders ADD UNIQUE KEY IF NOT EXISTS k3 (email)").key().name()).isEqualTo("k3");
        GlobalKeyAlter primary = alter("ALTER TABLE orders ADD CONSTRAINT pk PRIMARY KEY (id)");
        assertThat(primary.key().name()).isEqualTo("PRIMARY");
        assertThat(primary.key().type()).isEqualTo(Ddl.KeyType.PRIMARY);
        assertThat(primary.refusal()).isNull();
    }

    @Test
    void keysWithTheShardingColumnOrOtherChangesAloneAreNotItsBusiness() {
        assertThat(alter("ALTER TABLE orders ADD UNIQUE (email, cust_id)")).isNull();
        assertThat(alter("ALTER TABLE orders ADD COLUMN x INT, DROP COLUMN y")).isNull();
        assertThat(alter("ALTER TABLE orders ADD INDEX (email)")).isNull();
        assertThat(alter("ALTER TABLE orders ADD CONSTRAINT fk FOREIGN KEY (a) REFERENCES t (a)")).isNull();
    }

    @Test
    void otherIndexesAndAlgorithmMayComeWithItAndAreListedInOrder() {
        GlobalKeyAlter a = alter("ALTER TABLE orders ADD INDEX (email), ADD UNIQUE u (email), ADD FULLTEXT KEY ft (note),"
                + " ADD UNIQUE (id, cust_id), ALGORITHM = INPLACE, LOCK=NONE");
        assertThat(a.refusal()).isNull();
        assertThat(a.key().name()).isEqualTo("u");
        assertThat(a.added()).extracting(Ddl.KeyDef::name).containsExactly(null, "u", "ft", null);
    }

    @Test
    void whatCouldNotBeUndoneIsRefusedNamingTheClause() {
        assertThat(alter("ALTER TABLE orders ADD UNIQUE (email), MODIFY note TEXT").refusal())
                .contains("the unique key (email)").contains("'MODIFY note TEXT'").contains("statement of its own");
        assertThat(alter("ALTER TABLE orders ADD UNIQUE a (x), ADD CONSTRAINT b UNIQUE (y)").refusal())
                .contains("'ADD CONSTRAINT b UNIQUE (y)' is the second");
        // Each shard would delete its own duplicates, in a statement that then fails on those across shards.
        assertThat(alter("ALTER IGNORE TABLE orders ADD UNIQUE (email)").refusal()).startsWith("ALTER IGNORE TABLE orders")
                .contains("IGNORE, which deletes the rows that break the key, is not supported");
        assertThat(alter("ALTER ONLINE TABLE orders ADD UNIQUE (email)").refusal()).isNull();
        // A column defined UNIQUE is a key too, which could not be built with the column.
        assertThat(alter("ALTER TABLE orders ADD COLUMN email2 VARCHAR(10) NOT NULL UNIQUE KEY").refusal())
                .contains("makes email2 a unique key").contains("ADD UNIQUE (email2)");
        assertThat(alter("ALTER TABLE orders MODIFY COLUMN `note` TEXT PRIMARY KEY").refusal()).contains("makes note a");
        assertThat(alter("ALTER TABLE orders CHANGE note memo INT UNIQUE, ALGORITHM=COPY").refusal()).contains("makes memo");
        assertThat(alter("ALTER TABLE orders ADD (a INT, b INT UNIQUE)").refusal()).contains("makes a a unique key");
        assertThat(alter("ALTER TABLE orders ADD COLUMN IF NOT EXISTS c INT UNIQUE").refusal()).contains("makes c a");
        assertThat(alter("ALTER TABLE orders MODIFY cust_id BIGINT UNIQUE")).isNull();
        assertThat(alter("ALTER TABLE orders ADD COLUMN h_id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY")).isNull();
        assertThat(alter("ALTER TABLE orders ADD COLUMN c INT COMMENT 'unique', ADD KEY (c)")).isNull();
        // A key clause that cannot be read is never taken for no key.
        assertThat(alter("ALTER TABLE orders ADD UNIQUE (email), ADD KEY k ()").refusal())
                .contains("'ADD KEY k ()'");
        assertThat(alter("ALTER TABLE orders ADD UNIQUE KEY k ()").refusal()).contains("'ADD UNIQUE KEY k ()'")
                .contains("cannot read");
        assertThat(alter("ALTER TABLE orders ADD KEY k ()")).isNull();
    }

    @Test
    void unnamedKeysAreNamedAfterTheirFirstColumnAsTheServerNamesThem() {
        Set<String> taken = new HashSet<>(Set.of("primary", "email"));
        GlobalKeyAlter a = alter("ALTER TABLE orders ADD UNIQUE (email, b), ADD INDEX (email), ADD KEY named (x)");
        List<String> names = a.added().stream().map(k -> GlobalKeyAlter.serverName(k, taken)).toList();
        assertThat(names).containsExactly("email_2", "email_3", "named");
        assertThat(GlobalKeyAlter.serverName(alter("ALTER TABLE orders ADD PRIMARY KEY (id)").key(), new HashSet<>()))
                .isEqualTo("PRIMARY");
    }
}
