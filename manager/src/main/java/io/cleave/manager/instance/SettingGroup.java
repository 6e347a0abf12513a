package io.cleave.manager.instance;

/** The sections of a rendered my.cnf, in file order, each with the heading written above it. */
public enum SettingGroup {
    IDENTITY("Identity and addresses: loopback TCP and a private Unix socket only"),
    MEMORY("Memory: this instance's share of the configured total"),
    THREADS("Threads: sized to the CPUs the instance runs on"),
    FLASH("Storage: from the device under the datadir"),
    REDO("Redo log: sized from the buffer pool and the write rate, on the log device when there is one"),
    BINLOG("Row-based binlog: change capture for moving buckets between shards"),
    IDS("AUTO_INCREMENT ids unique across shards: every shard steps by the shard count from its own offset"),
    CHARSET("Character set"),
    OPTIONS("From server.options in the config");

    private final String heading;

    SettingGroup(String heading) {
        this.heading = heading;
    }

    public String heading() {
        return heading;
    }
}
