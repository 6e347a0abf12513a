package io.cleave.router.shardmap;

/**
 * A server the proxy routes to that Cleave does not run: the source of an import, attached while
 * its database's rows move to the local shards. Its index follows the local shards'; it owns no
 * bucket, only the tables the map's rules home on it, and no statement over "all shards" reaches it.
 *
 * @param label how it is shown (an address without credentials)
 */
public record AttachedShard(int index, String label) {

    /** The database imported from it: its label's last part ({@code mysql://app@db1:3306/shop}: shop). */
    public String database() {
        return label.substring(label.lastIndexOf('/') + 1);
    }
}
