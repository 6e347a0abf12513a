package io.cleave.e2e.fuzz;

import java.util.Arrays;
import java.util.Random;

/** Seeded damage to well-formed packets: flipped bits, random bytes, cuts, growth, extreme lengths. */
final class Mutator {

    private final Random random;

    Mutator(Random random) {
        this.random = random;
    }

    byte[] mutate(byte[] payload) {
        byte[] p = payload.clone();
        int rounds = 1 + random.nextInt(3);
        for (int r = 0; r < rounds; r++) {
            p = once(p);
        }
        return p;
    }

    private byte[] once(byte[] p) {
        switch (random.nextInt(7)) {
            case 0: // flip a bit
                if (p.length > 0) {
                    p[random.nextInt(p.length)] ^= (byte) (1 << random.nextInt(8));
                }
                return p;
            case 1: // a random byte somewhere
                if (p.length > 0) {
                    p[random.nextInt(p.length)] = (byte) random.nextInt(256);
                }
                return p;
            case 2: // cut short
                return Arrays.copyOf(p, p.length == 0 ? 0 : random.nextInt(p.length));
            case 3: // grow with junk
                byte[] longer = Arrays.copyOf(p, p.length + 1 + random.nextInt(64));
                for (int i = p.length; i < longer.length; i++) {
                    longer[i] = (byte) random.nextInt(256);
                }
                return longer;
            case 4: // an extreme value where lengths and counts live (0xfb-0xff, 0x00)
                if (p.length > 1) {
                    int[] extremes = {0x00, 0xfb, 0xfc, 0xfd, 0xfe, 0xff};
                    p[1 + random.nextInt(p.length - 1)] = (byte) extremes[random.nextInt(extremes.length)];
                }
                return p;
            case 5: // another command byte
                if (p.length > 0) {
                    p[0] = (byte) random.nextInt(0x20);
                }
                return p;
            default: // a run of one value
                if (p.length > 2) {
                    int from = random.nextInt(p.length);
                    Arrays.fill(p, from, Math.min(p.length, from + 1 + random.nextInt(8)), (byte) random.nextInt(256));
                }
                return p;
        }
    }

    /** Random bytes of up to {@code max} bytes (at least one). */
    byte[] noise(int max) {
        byte[] b = new byte[1 + random.nextInt(max)];
        random.nextBytes(b);
        return b;
    }

    /** A sequence id other than {@code right}. */
    int wrongSequence(int right) {
        return (right + 1 + random.nextInt(255)) & 0xff;
    }
}
