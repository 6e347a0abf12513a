package io.cleave.manager.instance;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Renders an instance's my.cnf from {@code config/my.cnf.template}: {@code {{settings}}} becomes
 * the plan's written settings, grouped under their headings, each with its reason as a comment
 * above it; {@code {{name}}}, {@code {{flavour}}} and {@code {{version}}} name the instance and
 * the server. A placeholder nobody defines is an error, not a blank.
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

    public String render(InstancePlan plan, ServerBinary binary) {
        Map<String, String> values = Map.of("name", plan.name(), "flavour", binary.flavour().displayName(),
                "version", binary.version().toString(), "settings", settings(plan));
        Matcher m = PLACEHOLDER.matcher(template);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = values.get(m.group(1));
            if (value == null) {
                throw new IllegalStateException("my.cnf template uses {{" + m.group(1) + "}}, which is not defined: expected one of "
                        + new TreeSet<>(values.keySet()));
            }
            m.appendReplacement(out, Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString().stripTrailing() + "\n";
    }

    private static String settings(InstancePlan plan) {
        StringBuilder out = new StringBuilder();
        SettingGroup group = null;
        for (SettingGroup g : SettingGroup.values()) {
            for (Setting s : plan.written()) {
                if (s.group() != g) {
                    continue;
                }
                if (group != g) {
                    out.append(out.length() == 0 ? "" : "\n").append("# ").append(g.heading()).append('\n');
                    group = g;
                }
                out.append("# ").append(s.reason().replace("\n", " ")).append('\n')
                        .append(s.option()).append(" = ").append(s.value()).append('\n');
            }
        }
        return out.toString().stripTrailing();
    }
}
