package io.cleave.proxy.auth;

/** The authentication methods the proxy speaks, on both sides. */
public enum AuthPlugin {
    MYSQL_NATIVE_PASSWORD("mysql_native_password"),
    CACHING_SHA2_PASSWORD("caching_sha2_password");

    private final String pluginName;

    AuthPlugin(String pluginName) {
        this.pluginName = pluginName;
    }

    public String pluginName() {
        return pluginName;
    }

    /** The plugin with this protocol name, or null for one the proxy does not speak. */
    public static AuthPlugin byName(String name) {
        for (AuthPlugin p : values()) {
            if (p.pluginName.equals(name)) {
                return p;
            }
        }
        return null;
    }

    /** The first-round token for {@code password} against {@code scramble}. */
    public byte[] token(byte[] password, byte[] scramble) {
        return this == MYSQL_NATIVE_PASSWORD ? Scrambles.nativeToken(password, scramble)
                : Scrambles.sha2Token(password, scramble);
    }
}
