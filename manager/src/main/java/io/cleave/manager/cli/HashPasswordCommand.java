package io.cleave.manager.cli;

import io.cleave.manager.auth.PasswordHashes;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.ByteArrayOutputStream;
import java.io.Console;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;

/** Prints the two stored forms of a password, ready to paste under proxy.users in the config. */
@Command(name = "hash-password", mixinStandardHelpOptions = true,
        description = {"Prints a password's hashes for proxy.users (mysql_native_password, caching_sha2_password).",
                "Reads the password from stdin, or prompts for it on a terminal."})
public final class HashPasswordCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    InputStream in = System.in;

    @Override
    public Integer call() throws IOException {
        String password = readPassword();
        if (password.isEmpty()) {
            spec.commandLine().getErr().println("error: empty password: for an empty password write password: \"\" in the config");
            return ExitCodes.USAGE;
        }
        var out = spec.commandLine().getOut();
        out.println("mysql_native_password: \"" + PasswordHashes.mysqlNative(password) + "\"");
        out.println("caching_sha2_password: \"" + yamlEscape(PasswordHashes.cachingSha2(password)) + "\"");
        out.flush();
        return ExitCodes.OK;
    }

    private String readPassword() throws IOException {
        Console console = System.console();
        if (console != null && in == System.in) {
            char[] chars = console.readPassword("Password: ");
            return chars == null ? "" : new String(chars);
        }
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        in.transferTo(buf);
        String text = buf.toString(StandardCharsets.UTF_8);
        if (text.endsWith("\n")) {
            text = text.substring(0, text.length() - 1);
        }
        if (text.endsWith("\r")) {
            text = text.substring(0, text.length() - 1);
        }
        return text;
    }

    private static String yamlEscape(String s) {
        return s.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
