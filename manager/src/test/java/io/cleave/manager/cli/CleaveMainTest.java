package io.cleave.manager.cli;

import io.cleave.manager.auth.PasswordHashes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class CleaveMainTest {

    @TempDir
    Path tmp;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    private int run(CommandLine cmd, String... args) {
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        return cmd.execute(args);
    }

    @ParameterizedTest
    @ValueSource(strings = {"init", "up", "down", "status", "explain", "xa", "hash-password"})
    void everySubcommandHasHelp(String sub) {
        assertThat(run(CleaveMain.commandLine(), sub, "--help")).isZero();
        assertThat(out.toString()).startsWith("Usage: cleave " + sub);
    }

    @Test
    void planHasHelpAndTakesHomeConfigAndJson() {
        assertThat(run(CleaveMain.commandLine(), "plan", "--help")).isZero();
        assertThat(out.toString()).startsWith("Usage: cleave plan").contains("--home=DIR", "--config=FILE", "--json");
    }

    @ParameterizedTest
    @ValueSource(strings = {"list", "commit", "rollback", "recover"})
    void everyXaSubcommandHasHelpAndFindsTheDaemonByHome(String sub) {
        assertThat(run(CleaveMain.commandLine(), "xa", sub, "--help")).isZero();
        assertThat(out.toString()).startsWith("Usage: cleave xa " + sub).contains("--home=DIR");
    }

    @Test
    void backupNamesItsEnginesAndRefusesAnUnknownOneBeforeAskingTheDaemon() {
        assertThat(run(CleaveMain.commandLine(), "backup", "--help")).isZero();
        assertThat(out.toString()).contains("--engine=ENGINE", "mariadb-backup");
        assertThat(run(CleaveMain.commandLine(), "backup", "--home", tmp.toString(), "--engine", "xtrabackup"))
                .isEqualTo(2);
        assertThat(err.toString()).contains("--engine xtrabackup: expected physical, logical or auto");
    }

    @Test
    void backupTakesAMaxRateAndRefusesANegativeOneBeforeAskingTheDaemon() {
        assertThat(run(CleaveMain.commandLine(), "backup", "--help")).isZero();
        assertThat(out.toString()).contains("--max-rate=MB/S");
        assertThat(run(CleaveMain.commandLine(), "backup", "--home", tmp.toString(), "--max-rate", "-1")).isEqualTo(2);
        assertThat(err.toString()).contains("--max-rate -1: give 0 (no bound) or more MB/s");
    }

    @Test
    void standbyNamesWhatItNeedsAndTakesOnlyOnOrOffForSemiSync() {
        assertThat(run(CleaveMain.commandLine(), "standby", "--help")).isZero();
        assertThat(out.toString()).startsWith("Usage: cleave standby").contains("--primary=URL", "--via=LOCATION",
                "--semi-sync=on|off");
        assertThat(run(CleaveMain.commandLine(), "standby", "--home", tmp.resolve("b").toString(), "--primary",
                "http://127.0.0.1:1")).isEqualTo(2);
        assertThat(err.toString()).contains("give --primary, --primary-token-file, --via, --home, --base-port,"
                + " --admin-port and --proxy-listen");
        assertThat(run(CleaveMain.commandLine(), "standby", "--home", tmp.toString(), "--semi-sync", "maybe")).isEqualTo(2);
        assertThat(err.toString()).contains("--semi-sync takes on or off");
    }

    @Test
    void standbyStopsAForwardingProxyOrForgetsAGoneOneThroughTheHomesDaemon() {
        assertThat(run(CleaveMain.commandLine(), "standby", "--help")).isZero();
        assertThat(out.toString()).contains("--stop-forwarding", "--forwarding-gone");
        assertThat(run(CleaveMain.commandLine(), "standby", "--home", tmp.toString(), "--stop-forwarding"))
                .isEqualTo(ExitCodes.NO_DAEMON);
        assertThat(run(CleaveMain.commandLine(), "standby", "--home", tmp.toString(), "--forwarding-gone"))
                .isEqualTo(ExitCodes.NO_DAEMON);
    }

    @Test
    void promoteTakesOnlyTheHomeAndSaysItDoesNotFence() {
        assertThat(run(CleaveMain.commandLine(), "promote", "--help")).isZero();
        assertThat(out.toString()).startsWith("Usage: cleave promote").contains("--home=DIR",
                "It does not fence the old primary");
        assertThat(run(CleaveMain.commandLine(), "promote", "--home", tmp.toString(), "--primary", "x")).isEqualTo(2);
    }

    @Test
    void rejoinNeedsTheNewPrimaryAndItsToken() {
        assertThat(run(CleaveMain.commandLine(), "rejoin", "--help")).isZero();
        assertThat(out.toString()).startsWith("Usage: cleave rejoin").contains("--home=DIR", "--primary=URL",
                "--primary-token-file=FILE", "--rebuild", "--via=LOCATION", "HOME/errant/EPOCH");
        assertThat(run(CleaveMain.commandLine(), "rejoin", "--home", tmp.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--primary");
    }

    @Test
    void aRebuildNeedsWhereTheSeedGoesAndTheDaemonThatChecksTheShards() throws Exception {
        Files.writeString(tmp.resolve("token"), "t0ken\n");
        Path home = Files.createDirectories(tmp.resolve("home"));
        String[] rejoin = {"rejoin", "--home", home.toString(), "--primary", "http://127.0.0.1:1", "--primary-token-file",
                tmp.resolve("token").toString()};
        assertThat(run(CleaveMain.commandLine(), append(rejoin, "--rebuild"))).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("--rebuild needs --via LOCATION");
        // Nothing runs for the home and no rebuild of it was cut short: the GTID check needs its daemon.
        assertThat(run(CleaveMain.commandLine(), append(rejoin, "--rebuild", "--via", tmp.resolve("seed").toString())))
                .isEqualTo(ExitCodes.NO_DAEMON);
        assertThat(err.toString()).contains("no cleave daemon is running for home " + home);
        assertThat(run(CleaveMain.commandLine(), rejoin)).isEqualTo(ExitCodes.NO_DAEMON);
        assertThat(home).isEmptyDirectory();
    }

    private static String[] append(String[] args, String... more) {
        String[] all = java.util.Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        return all;
    }

    @Test
    void standbyTakesItsPrimaryAndAddressesFromAConfigsStandbySection() throws Exception {
        Files.writeString(tmp.resolve("token"), "t0ken\n");
        Path config = tmp.resolve("standby.yaml");
        Files.writeString(config, """
                server: { base_port: 3407 }
                admin: { port: 6134 }
                proxy: { listen: "127.0.0.1:6133", users: [{ name: root, password: "" }] }
                standby:
                  primary: http://127.0.0.1:1
                  primary_token_file: token
                  via: seed
                """);
        assertThat(run(CleaveMain.commandLine(), "standby", "--home", tmp.resolve("b").toString(), "--config",
                config.toString())).isEqualTo(1);
        assertThat(err.toString()).as("every option came from the config: the primary was asked")
                .contains("the daemon at http://127.0.0.1:1 does not answer");
        assertThat(tmp.resolve("b")).doesNotExist();
    }

    @Test
    void upRefusesAHomeWhoseRestoreDidNotFinishAndSaysWhatToDo() throws Exception {
        Files.createDirectories(tmp.resolve("state"));
        Files.writeString(tmp.resolve("state").resolve("restore-unfinished"), "a restore is building this home\n");
        assertThat(run(CleaveMain.commandLine(), "up", "--home", tmp.toString())).isEqualTo(ExitCodes.FAILED);
        assertThat(err.toString()).contains(tmp + " is a restore that did not finish",
                "Run the same command (cleave restore ... --home " + tmp + ") again");
        assertThat(tmp.resolve("etc")).as("no shard was set up").doesNotExist();
    }

    @Test
    void xaListsItsSubcommands() {
        assertThat(run(CleaveMain.commandLine(), "xa")).isZero();
        assertThat(out.toString()).contains("list", "commit", "rollback", "recover");
    }

    @Test
    void xaWithoutADaemonSaysSoAndFails() {
        assertThat(run(CleaveMain.commandLine(), "xa", "list", "--home", tmp.toString())).isEqualTo(ExitCodes.NO_DAEMON);
        assertThat(run(CleaveMain.commandLine(), "xa", "rollback", "--home", tmp.toString(), "cleave:0:1:2:3"))
                .isEqualTo(ExitCodes.NO_DAEMON);
        assertThat(err.toString()).contains("no cleave daemon is running for home " + tmp);
    }

    @Test
    void resolvingNeedsTheXid() {
        assertThat(run(CleaveMain.commandLine(), "xa", "commit", "--home", tmp.toString(), "--force"))
                .isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("Missing required parameter: 'XID'");
    }

    @Test
    void homeAndConfigAreSharedOptions() {
        run(CleaveMain.commandLine(), "up", "--help");
        assertThat(out.toString()).contains("--home=DIR").contains("--config=FILE").contains("--detach");
    }

    @Test
    void statusWithoutADaemonSaysSoAndFails() {
        int code = run(CleaveMain.commandLine(), "status", "--home", tmp.toString());
        assertThat(code).isEqualTo(ExitCodes.NO_DAEMON);
        assertThat(err.toString()).isEqualTo("error: no cleave daemon is running for home " + tmp
                + " (start one with 'cleave up')" + System.lineSeparator());
    }

    @Test
    void explainWithoutADaemonSaysSoAndFails() {
        int code = run(CleaveMain.commandLine(), "explain", "--home", tmp.toString(), "SELECT 1");
        assertThat(code).isEqualTo(ExitCodes.NO_DAEMON);
        assertThat(err.toString()).contains("no cleave daemon is running for home " + tmp);
    }

    @Test
    void explainNeedsTheStatement() {
        assertThat(run(CleaveMain.commandLine(), "explain", "--home", tmp.toString())).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString()).contains("Missing required parameter: 'SQL'");
    }

    @Test
    void downWithNothingRunningIsANoOp() {
        assertThat(run(CleaveMain.commandLine(), "down", "--home", tmp.toString())).isZero();
        assertThat(out.toString()).contains("no cleave daemon is running for home " + tmp + "; nothing to stop");
    }

    @Test
    void invalidConfigExitsWithItsOwnCodeAndTheMessage() throws Exception {
        Path config = tmp.resolve("bad.yaml");
        Files.writeString(config, "shards: 2\nproxy: {users: [{name: root, password: \"\"}]}\nbogus: 1\n");
        int code = run(CleaveMain.commandLine(), "init", "--home", tmp.resolve("home").toString(), "--config", config.toString());
        assertThat(code).isEqualTo(ExitCodes.CONFIG_INVALID);
        assertThat(err.toString()).contains("error: invalid config:\n" + config + ":3: bogus: unknown key: expected one of");
    }

    @Test
    void missingConfigFileIsNamed() {
        int code = run(CleaveMain.commandLine(), "up", "--home", tmp.toString(), "--config", tmp.resolve("nope.yaml").toString());
        assertThat(code).isEqualTo(ExitCodes.FAILED);
        assertThat(err.toString()).contains("config file " + tmp.resolve("nope.yaml") + " does not exist: pass --config FILE");
    }

    @Test
    void hashPasswordPrintsBothLinesReadyToPaste() {
        CommandLine cmd = CleaveMain.commandLine();
        HashPasswordCommand hash = cmd.getSubcommands().get("hash-password").getCommand();
        hash.in = new ByteArrayInputStream("x\n".getBytes(StandardCharsets.UTF_8));
        assertThat(run(cmd, "hash-password")).isZero();
        String[] lines = out.toString().split("\\R");
        assertThat(lines[0]).isEqualTo("mysql_native_password: \"*B69027D44F6E5EDC07F1AEAD1477967B16F28227\"");
        assertThat(lines[1]).startsWith("caching_sha2_password: \"$A$005$");
        String sha2 = lines[1].substring("caching_sha2_password: \"".length(), lines[1].length() - 1);
        assertThat(PasswordHashes.matchesCachingSha2("x", sha2)).isTrue();
    }
}
