package io.cleave.manager.instance;

import io.cleave.manager.config.ByteSize;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders an instance's my.cnf from {@code config/my.cnf.template}. A placeholder {@code {{name}}}
 * takes the value planned for the instance; a line whose placeholder has no value for this
 * flavour/version (say innodb_buffer_pool_instances on MariaDB 10.6+) is left out, so the server
 * never sees an option it does not know. A placeholder nobody defines is an error, not a blank.
 */
public final class CnfRenderer {

    public static final String TEMPLATE_RESOURCE = "/cleave-config/my.cnf.template";
    private static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{([a-z_]+)}}");

    private final String template;

    public CnfRenderer(String template) {
        this.template = template;
    }

    /** The template packaged in cleave.jar. */
    public static CnfRenderer packaged() {
        try (InputStream in = CnfRenderer.class.getResourceAsStream(TEMPLATE_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException(TEMPLATE_RESOURCE + " is missing from the build");
            }
            return new CnfRenderer(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * @param extraOptions server.options from the config, appended to [mysqld]
     * @param runAsRoot    whether the daemon runs as root (mysqld then needs user=root)
     */
    public String render(InstancePlan plan, ServerBinary binary, Map<String, String> extraOptions, boolean runAsRoot) {
        Map<String, String> v = values(plan, binary, extraOptions, runAsRoot);
        StringBuilder out = new StringBuilder();
        for (String line : template.split("\n", -1)) {
            Matcher m = PLACEHOLDER.matcher(line);
            StringBuilder rendered = new StringBuilder();
            boolean omit = false;
            while (m.find()) {
                String key = m.group(1);
                if (!v.containsKey(key)) {
                    throw new IllegalStateException("my.cnf template uses {{" + key + "}}, which is not defined: expected one of "
                            + new java.util.TreeSet<>(v.keySet()));
                }
                String value = v.get(key);
                if (value == null) {
                    omit = true;
                    break;
                }
                m.appendReplacement(rendered, Matcher.quoteReplacement(value));
            }
            if (!omit) {
                m.appendTail(rendered);
                out.append(rendered).append('\n');
            }
        }
        return out.toString().stripTrailing() + "\n";
    }

    private static Map<String, String> values(InstancePlan plan, ServerBinary binary, Map<String, String> extra,
                                              boolean runAsRoot) {
        Flavour flavour = binary.flavour();
        ServerVersion version = binary.version();
        Map<String, String> v = new HashMap<>();
        v.put("name", plan.name());
        v.put("flavour", flavour.displayName());
        v.put("version", version.toString());
        v.put("server_id", String.valueOf(plan.serverId()));
        v.put("port", String.valueOf(plan.port()));
        v.put("socket", plan.socket().toString());
        v.put("pid_file", plan.pidFile().toString());
        v.put("basedir", binary.basedir().toString());
        v.put("datadir", plan.datadir().toString());
        v.put("log_error", plan.errorLog().toString());
        v.put("user", runAsRoot ? "root" : null);
        // X Protocol would open another port and socket; shards speak the classic protocol only.
        v.put("mysqlx", flavour.isMysqlFamily() ? "OFF" : null);
        // MariaDB generates a TLS certificate at every start without this (seconds of CPU); shards
        // listen on loopback and a private socket only.
        v.put("ssl", flavour == Flavour.MARIADB ? "0" : null);
        v.put("buffer_pool_size", ByteSize.format(plan.bufferPoolBytes()));
        boolean hasPoolInstances = flavour.isMysqlFamily() || !version.atLeast(10, 6);
        v.put("buffer_pool_instances", hasPoolInstances ? String.valueOf(plan.bufferPoolInstances()) : null);
        v.put("flush_method", plan.directIo() ? "O_DIRECT" : "fsync");
        v.put("flush_method_note", plan.directIo() ? null : "# O_DIRECT unavailable: " + plan.flushMethodReason());
        v.put("io_capacity", String.valueOf(plan.ioCapacity()));
        v.put("io_capacity_max", String.valueOf(plan.ioCapacity() * 2));
        v.put("redo_dir", plan.separateLogDir() ? plan.logDir().toString() : null);
        v.put("log_bin", plan.logDir().resolve("binlog").toString());
        v.put("auto_increment_increment", String.valueOf(plan.shardCount()));
        v.put("auto_increment_offset", String.valueOf(plan.index() + 1));
        StringBuilder options = new StringBuilder();
        extra.forEach((key, value) -> options.append(options.length() == 0 ? "" : "\n").append(key).append(" = ").append(value));
        v.put("extra_options", extra.isEmpty() ? null : "# From server.options in the config.\n" + options);
        return v;
    }
}
