package io.cleave.manager.backup.restore;

import io.cleave.manager.backup.BackupManifest;
import io.cleave.manager.backup.Sequences;
import io.cleave.manager.move.Sql;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Makes a backup's accounts and schema on one shard of a new home, as the proxy makes DDL on every
 * shard: accounts, databases, sequences (standing where the backup read them), tables (secondary
 * indexes deferred, see {@link DeferredIndexes}), then views and routines, which may read the tables
 * and each other (those are retried until every one that can be made is).
 */
final class SchemaRestore {

    private SchemaRestore() {
    }

    static void apply(Connection c, BackupManifest manifest) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SET sql_log_bin = 0");
            s.execute("SET NAMES utf8mb4");
            for (String account : manifest.accounts()) {
                s.execute(account);
            }
            s.execute("CREATE DATABASE IF NOT EXISTS cleave");
            for (BackupManifest.DatabaseDdl db : manifest.databases()) {
                s.execute(db.create());
            }
            // Before the tables: a column's DEFAULT NEXTVAL(s) needs s to exist.
            for (BackupManifest.SequenceBackup q : manifest.sequences()) {
                Sequences.restore(s, q);
            }
            for (BackupManifest.TableBackup t : manifest.tables()) {
                s.execute("USE " + Sql.quote(t.schema()));
                s.execute(t.schema().equals("cleave") ? t.create().replaceFirst("CREATE TABLE", "CREATE TABLE IF NOT EXISTS")
                        : DeferredIndexes.split(t.create()).createWithoutIndexes());
            }
            List<String[]> pending = new ArrayList<>();
            for (BackupManifest.DatabaseDdl db : manifest.databases()) {
                for (String v : db.views()) {
                    pending.add(new String[] {db.name(), v});
                }
                for (String r : db.routines()) {
                    pending.add(new String[] {db.name(), r});
                }
            }
            while (!pending.isEmpty()) {
                List<String[]> failed = new ArrayList<>();
                SQLException last = null;
                for (String[] ddl : pending) {
                    try {
                        s.execute("USE " + Sql.quote(ddl[0]));
                        s.execute(ddl[1]);
                    } catch (SQLException e) {
                        failed.add(ddl);
                        last = e;
                    }
                }
                if (failed.size() == pending.size()) {
                    throw new SQLException("cannot make " + failed.size() + " views or routines, e.g. in " + failed.get(0)[0]
                            + ": " + last.getMessage(), last);
                }
                pending = failed;
            }
        }
    }

    /** Adds every table's deferred indexes on one shard. */
    static void addIndexes(Connection c, List<BackupManifest.TableBackup> tables) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SET sql_log_bin = 0");
            for (BackupManifest.TableBackup t : tables) {
                String alter = t.schema().equals("cleave") ? null
                        : DeferredIndexes.split(t.create()).alter(Sql.quote(t.schema()) + "." + Sql.quote(t.table()));
                if (alter != null) {
                    s.execute(alter);
                }
            }
        }
    }
}
