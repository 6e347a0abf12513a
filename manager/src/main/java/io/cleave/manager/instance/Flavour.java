package io.cleave.manager.instance;

/** The server families Cleave runs; they initialize datadirs and name options differently. */
public enum Flavour {
    MYSQL("MySQL"),
    PERCONA("Percona Server"),
    MARIADB("MariaDB");

    private final String displayName;

    Flavour(String displayName) {
        this.displayName = displayName;
    }

    public String displayName() {
        return displayName;
    }

    /** MySQL and Percona Server share initialization, options and privileges. */
    public boolean isMysqlFamily() {
        return this != MARIADB;
    }
}
