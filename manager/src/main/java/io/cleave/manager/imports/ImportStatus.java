package io.cleave.manager.imports;

import java.util.List;

/**
 * What {@code cleave import --status} shows: the import's state ({@code "done"} at the end), its
 * source without the password, the move carrying the rows, and each table's progress.
 *
 * @param state  attaching, creating schema, copying, catching up, verifying, cutting over, detaching, done, failed
 * @param pauseMillis how long clients' statements on the database waited at the cutover
 */
public record ImportStatus(String state, String source, String database, long move, long rowsCopied, long rowsTotal,
                           double pauseMillis, List<Table> tables, List<String> views, List<String> routines,
                           String message, String started, String ended) {

    /**
     * One table: the rule its rows move by, and how far its copy is.
     *
     * @param state waiting, copying, copied (catching up until the cutover), done
     */
    public record Table(String table, String rule, long rowsTotal, long rowsCopied, String state) {
    }
}
