package io.cleave.manager.coordination;

/**
 * Who is a standby pair's primary, as the value of its lease-backed key in etcd.
 *
 * @param host  the primary's host name, for people reading errors and status
 * @param admin the primary's admin URL (a returning old primary names it in its refusals)
 * @param epoch the epoch it serves at
 */
public record PrimaryClaim(String host, String admin, long epoch) {

    @Override
    public String toString() {
        return admin + " (" + host + ", epoch " + epoch + ")";
    }
}
