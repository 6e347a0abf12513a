package io.cleave.proxy.importing;

import io.cleave.router.keyspace.HashShardFunction;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.plan.Analysis;
import io.cleave.router.plan.Router;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ImportReadersTest {

    private final Router router = new Router(new Topology(3, Map.of("h", new Keyspace("h", new HashShardFunction(16,
            KeyType.INTEGER))), Map.of("sb", new TableRule.Sharded("sb", "h", "id"),
            "items", new TableRule.Unsharded("items", 2)), 0));
    private final ShardMap plain = new ShardMap(1, 2, Map.of("h", new int[16]));
    private final ShardMap importing = plain.withAttached("mysql://app@db1:3306/shop");

    @Test
    void aReaderOfTheImportedDatabaseInAnotherIsRefusedNamingBoth() {
        String refusal = refusal("CREATE VIEW reports.seen AS SELECT id FROM shop.items", importing, "reports");
        assertThat(refusal).contains("the import of shop from mysql://app@db1:3306/shop is under way")
                .contains("the view reports.seen names shop").contains("Create it after the cutover");
        assertThat(refusal("CREATE OR REPLACE VIEW `reports`.`seen` AS SELECT id FROM `shop`.`items`", importing, null))
                .contains("view reports.seen");
        assertThat(refusal("ALTER VIEW seen AS SELECT id FROM shop.items", importing, "reports")).contains("view reports.seen");
        assertThat(refusal("CREATE FUNCTION reports.n() RETURNS INT READS SQL DATA RETURN (SELECT COUNT(*) FROM"
                + " shop.items)", importing, null)).contains("function reports.n names shop");
        assertThat(refusal("CREATE DEFINER = CURRENT_USER PROCEDURE p() BEGIN PREPARE s FROM 'SELECT * FROM shop.items';"
                + " EXECUTE s; END", importing, "reports")).contains("procedure reports.p names shop");
        assertThat(refusal("CREATE TRIGGER reports.t AFTER INSERT ON reports.log FOR EACH ROW INSERT INTO shop.items"
                + " VALUES (NEW.id, 'x')", importing, null)).contains("trigger reports.t names shop");
        assertThat(refusal("CREATE EVENT reports.e ON SCHEDULE EVERY 1 HOUR DO DELETE FROM shop.items", importing, null))
                .contains("event reports.e names shop");
        assertThat(refusal("ALTER EVENT reports.e DO DELETE FROM shop.items", importing, null)).contains("event reports.e");
    }

    @Test
    void aViewMadeFromASessionInTheImportedDatabaseReadsItByItsUnqualifiedNames() {
        assertThat(refusal("CREATE VIEW reports.seen AS SELECT id FROM items", importing, "shop"))
                .contains("the view reports.seen is created while the session's database is shop");
    }

    @Test
    void whatNamesItNotOrIsItsOwnOrRunsWithoutAnImportGoesOn() {
        assertThat(refusal("CREATE VIEW reports.seen AS SELECT id FROM shop.items", plain, "reports")).as("no import")
                .isNull();
        assertThat(refusal("CREATE VIEW reports.seen AS SELECT id FROM myshop.items", importing, "reports")).isNull();
        assertThat(refusal("CREATE PROCEDURE shop.p() SELECT COUNT(*) FROM shop.items", importing, null))
                .as("the database's own: its tables' rules decide").isNull();
        assertThat(refusal("CREATE VIEW v AS SELECT 1 FROM shop.items", importing, "shop")).as("its own, unqualified")
                .isNull();
        assertThat(refusal("SELECT * FROM shop.items", importing, "reports")).as("not a reader").isNull();
        assertThat(refusal("DROP VIEW reports.seen", importing, "reports")).as("dropping one").isNull();
    }

    private String refusal(String sql, ShardMap map, String schema) {
        Analysis a = router.analyze(sql.getBytes(StandardCharsets.UTF_8), SqlMode.DEFAULT, new Analysis());
        return ImportReaders.refusal(a.plan(), a, map, schema);
    }
}
