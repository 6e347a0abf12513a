package io.cleave.proxy.backend;

import io.cleave.proxy.auth.AuthPlugin;
import io.cleave.proxy.auth.Scrambles;

import java.util.Arrays;

/**
 * What the proxy answers a shard's authentication with, as one account. Never written anywhere:
 * it lives in memory while clients of the account are served.
 */
public sealed interface ShardCredential {

    /** An account without a password. */
    ShardCredential NONE = new Password(new byte[0]);

    /** The answer to {@code scramble} for {@code plugin}'s first round, or null when this credential cannot give it. */
    byte[] token(AuthPlugin plugin, byte[] scramble);

    /** The password itself, for full authentication (clear over a Unix socket, or RSA); null when unknown. */
    byte[] cleartext();

    /** The password, as the shard account and caching_sha2_password logins have it. */
    record Password(byte[] password) implements ShardCredential {
        @Override
        public byte[] token(AuthPlugin plugin, byte[] scramble) {
            return plugin.token(password, scramble);
        }

        @Override
        public byte[] cleartext() {
            return password;
        }
    }

    /**
     * SHA1(password), which a mysql_native_password login yields (see {@link Scrambles#nativeStage1}):
     * enough to answer any mysql_native_password scramble, as the client itself would.
     */
    record NativeStage1(byte[] stage1) implements ShardCredential {
        public NativeStage1 {
            if (stage1.length != Scrambles.SCRAMBLE_LENGTH) {
                throw new IllegalArgumentException("SHA1(password) has 20 bytes");
            }
            stage1 = Arrays.copyOf(stage1, stage1.length);
        }

        @Override
        public byte[] token(AuthPlugin plugin, byte[] scramble) {
            return plugin == AuthPlugin.MYSQL_NATIVE_PASSWORD ? Scrambles.nativeTokenFromStage1(stage1, scramble) : null;
        }

        @Override
        public byte[] cleartext() {
            return null;
        }
    }
}
