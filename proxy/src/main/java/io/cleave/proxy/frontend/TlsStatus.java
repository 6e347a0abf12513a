package io.cleave.proxy.frontend;

import io.cleave.proxy.merge.ResultColumn;
import io.cleave.proxy.merge.TextRow;
import io.cleave.proxy.protocol.ColumnType;
import io.cleave.proxy.protocol.packet.server.ColumnDefinition41;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;
import io.netty.handler.ssl.SslHandler;

import javax.net.ssl.SSLSession;
import java.nio.charset.StandardCharsets;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TimeZone;
import java.util.regex.Pattern;

/**
 * {@code SHOW [SESSION] STATUS LIKE 'Ssl%'}: the client's own TLS session with the proxy, answered
 * by the proxy (a shard would describe its connection with the proxy, which has none). Other
 * status variables go to a shard as before.
 */
final class TlsStatus {

    private TlsStatus() {
    }

    /** The LIKE pattern when the statement asks for Ssl_ variables only, else null. */
    static String pattern(TokenBuffer tokens) {
        int i = 0;
        if (!tokens.textEqualsIgnoreCase(i++, "SHOW")) {
            return null;
        }
        if (tokens.textEqualsIgnoreCase(i, "SESSION") || tokens.textEqualsIgnoreCase(i, "LOCAL")) {
            i++;
        }
        if (!tokens.textEqualsIgnoreCase(i++, "STATUS") || !tokens.textEqualsIgnoreCase(i++, "LIKE")
                || tokens.type(i) != TokenType.STRING) {
            return null;
        }
        String literal = tokens.text(i++);
        if (i < tokens.size() && tokens.type(i) != TokenType.EOF && !tokens.text(i).equals(";")) {
            return null;
        }
        String pattern = literal.substring(1, literal.length() - 1).replace("''", "'");
        return pattern.regionMatches(true, 0, "ssl", 0, 3) ? pattern : null;
    }

    static void answer(Session session, Command command, String pattern) {
        Pattern like = like(pattern);
        List<TextRow> rows = new ArrayList<>();
        for (Map.Entry<String, String> v : variables(session).entrySet()) {
            if (like.matcher(v.getKey()).matches()) {
                rows.add(TextRow.of(new byte[][] {v.getKey().getBytes(StandardCharsets.US_ASCII),
                        v.getValue().getBytes(StandardCharsets.UTF_8)}));
            }
        }
        List<ResultColumn> columns = List.of(column("Variable_name", 64), column("Value", 2048));
        command.answer(columns, rows, 0);
    }

    /** The Ssl_ status variables a server shows for one connection, with this client's values. */
    private static Map<String, String> variables(Session session) {
        SslHandler tls = session.output().channel().pipeline().get(SslHandler.class);
        SSLSession ssl = tls == null ? null : tls.engine().getSession();
        Map<String, String> out = new LinkedHashMap<>();
        out.put("Ssl_cipher", ssl == null ? "" : openSslName(ssl.getCipherSuite()));
        out.put("Ssl_server_not_after", ssl == null ? "" : certificateDate(ssl, true));
        out.put("Ssl_server_not_before", ssl == null ? "" : certificateDate(ssl, false));
        out.put("Ssl_verify_depth", "0");
        out.put("Ssl_verify_mode", "0");
        out.put("Ssl_version", ssl == null ? "" : ssl.getProtocol());
        return out;
    }

    /** A Java cipher suite name as OpenSSL (and so a server) names it: TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384 is ECDHE-RSA-AES256-GCM-SHA384. */
    static String openSslName(String java) {
        int with = java.indexOf("_WITH_");
        if (!java.startsWith("TLS_") || with < 0) {
            return java;
        }
        String exchange = java.substring(4, with).replace('_', '-');
        String cipher = java.substring(with + 6).replace("AES_", "AES").replace('_', '-');
        if (cipher.startsWith("CHACHA20-POLY1305")) {
            cipher = "CHACHA20-POLY1305";
        }
        return exchange + "-" + cipher;
    }

    private static String certificateDate(SSLSession ssl, boolean notAfter) {
        Certificate[] local = ssl.getLocalCertificates();
        if (local == null || local.length == 0 || !(local[0] instanceof X509Certificate x509)) {
            return "";
        }
        SimpleDateFormat format = new SimpleDateFormat("MMM d HH:mm:ss yyyy 'GMT'", Locale.ROOT);
        format.setTimeZone(TimeZone.getTimeZone("GMT"));
        return format.format(notAfter ? x509.getNotAfter() : x509.getNotBefore());
    }

    /** A LIKE pattern as a regular expression (case-insensitive, as status names compare). */
    private static Pattern like(String pattern) {
        StringBuilder regex = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (c == '\\' && i + 1 < pattern.length()) {
                regex.append(Pattern.quote(String.valueOf(pattern.charAt(++i))));
            } else if (c == '%') {
                regex.append(".*");
            } else if (c == '_') {
                regex.append('.');
            } else {
                regex.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(regex.toString(), Pattern.CASE_INSENSITIVE | Pattern.DOTALL);
    }

    private static ResultColumn column(String name, long length) {
        return new ResultColumn(new ColumnDefinition41("", "", "", name, "", 45, length, ColumnType.VAR_STRING.code(),
                0, 0), null);
    }
}
