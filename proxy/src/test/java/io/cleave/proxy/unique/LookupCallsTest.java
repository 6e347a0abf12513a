package io.cleave.proxy.unique;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The statements on lookup tables as the client's connection sends them: through Cleave's
 * procedure, as hex, sealed with the run's secret as the procedure checks it
 * ({@code SHA2(CONCAT(secret, SHA2(CONCAT(secret, stmt), 256)), 256)}); and the write that checks
 * the account's privilege on the table first.
 */
class LookupCallsTest {

    private static final String SECRET = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    @Test
    void aLookupStatementGoesAsHexWithTheSealTheProcedureComputes() throws Exception {
        byte[] statement = "SELECT cleave_key FROM cleave.`u_db_t_v` WHERE (`v` = _utf8mb4 X'61')".getBytes(StandardCharsets.UTF_8);

        String call = new String(new LookupCalls(SECRET).call(statement), StandardCharsets.US_ASCII);

        MessageDigest sha = MessageDigest.getInstance("SHA-256");
        sha.update(SECRET.getBytes(StandardCharsets.US_ASCII));
        String inner = HexFormat.of().formatHex(sha.digest(statement));
        sha.update(SECRET.getBytes(StandardCharsets.US_ASCII));
        String seal = HexFormat.of().formatHex(sha.digest(inner.getBytes(StandardCharsets.US_ASCII)));
        assertThat(call).isEqualTo("CALL cleave.unique_lookup(@@session.sql_mode, X'" + HexFormat.of().withUpperCase().formatHex(statement)
                + "', '" + seal + "')");
    }

    @Test
    void anotherSecretOrStatementGetsAnotherSeal() {
        byte[] a = "SELECT 1".getBytes(StandardCharsets.US_ASCII);
        byte[] b = "SELECT 2".getBytes(StandardCharsets.US_ASCII);
        LookupCalls calls = new LookupCalls(SECRET);
        assertThat(calls.seal(a)).isNotEqualTo(calls.seal(b));
        assertThat(new LookupCalls(LookupCalls.newSecret()).seal(a)).isNotEqualTo(calls.seal(a));
    }

    @Test
    void theWriteIsCheckedWithAStatementThatChangesNoRow() {
        LookupCalls calls = new LookupCalls(SECRET);
        assertThat(text(calls.writeCheck(LookupCalls.Write.INSERT, "db", "t`x", List.of("a", "b"), List.of())))
                .isEqualTo("SET STATEMENT sql_mode = '' FOR INSERT INTO `db`.`t``x` (`a`, `b`) SELECT NULL, NULL FROM DUAL"
                        + " WHERE 0");
        assertThat(text(calls.writeCheck(LookupCalls.Write.REPLACE, "db", "t", List.of("a"), List.of())))
                .isEqualTo("SET STATEMENT sql_mode = '' FOR REPLACE INTO `db`.`t` (`a`) SELECT NULL FROM DUAL WHERE 0");
        assertThat(text(calls.writeCheck(LookupCalls.Write.UPDATE, "db", "t", List.of("a"), List.of())))
                .isEqualTo("SET STATEMENT sql_mode = '' FOR UPDATE `db`.`t` SET `a` = NULL WHERE 0");
        assertThat(text(calls.writeCheck(LookupCalls.Write.UPSERT, "db", "t", List.of("a"), List.of("n", "m"))))
                .isEqualTo("SET STATEMENT sql_mode = '' FOR INSERT INTO `db`.`t` (`a`) SELECT NULL FROM DUAL WHERE 0"
                        + " ON DUPLICATE KEY UPDATE `n` = NULL, `m` = NULL");
    }

    @Test
    void onMySqlShardsTheStatementsGoAsTheyAreUnchecked() {
        byte[] statement = "SELECT 1".getBytes(StandardCharsets.US_ASCII);
        assertThat(LookupCalls.DIRECT.call(statement)).isSameAs(statement);
        assertThat(LookupCalls.DIRECT.writeCheck(LookupCalls.Write.INSERT, "db", "t", List.of("a"), List.of())).isNull();
    }

    private static String text(byte[] b) {
        return new String(b, StandardCharsets.UTF_8);
    }
}
