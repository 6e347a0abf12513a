package io.cleave.proxy.importing;

import io.cleave.router.importing.DatabaseReferences;
import io.cleave.router.plan.Analysis;
import io.cleave.router.plan.Plan;
import io.cleave.router.shardmap.AttachedShard;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.sql.ast.Ddl;
import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.ast.StatementKind;
import io.cleave.router.sql.ast.TableName;
import io.cleave.router.sql.parse.SqlParser;
import io.cleave.router.sql.parse.SqlSyntaxException;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * Refuses, while a database is imported (its source attached), a view, procedure, function, trigger or event of
 * another database whose text names it. Until the cutover the database's rows are on the source, but such an object
 * is created on the shards and runs there, where it would read the import's partial copy (a wrong answer) or write
 * into it (a write the cutover overwrites). The database's own objects are refused by its tables' rules (they are
 * homed on the source). A view created while the session is in the imported database is refused too: its unqualified
 * names read that database. Costs one empty-list check per statement while nothing is imported.
 */
public final class ImportReaders {

    private static final Set<StatementKind> READERS = EnumSet.of(StatementKind.CREATE_VIEW, StatementKind.ALTER_VIEW,
            StatementKind.CREATE_PROCEDURE, StatementKind.CREATE_FUNCTION, StatementKind.CREATE_TRIGGER,
            StatementKind.CREATE_EVENT, StatementKind.ALTER_EVENT);

    private ImportReaders() {
    }

    /** The refusal (1235) for {@code plan} run in {@code schema} (the session's database, or null), or null. */
    public static String refusal(Plan plan, Analysis analysis, ShardMap map, String schema) {
        if (map.attached().isEmpty() || !READERS.contains(plan.kind())) {
            return null;
        }
        TableName object = object(analysis);
        String home = object != null && object.schema() != null ? object.schema() : schema;
        String text = analysis.tokens().size() == 0 ? "" : analysis.tokens().text(0, analysis.tokens().size() - 1);
        boolean view = plan.kind() == StatementKind.CREATE_VIEW || plan.kind() == StatementKind.ALTER_VIEW;
        for (AttachedShard source : map.attached()) {
            String database = source.database();
            if (database.equals(home)) {
                continue;
            }
            boolean named = DatabaseReferences.of(database).namedIn(text);
            if (named || view && database.equals(schema)) {
                String what = plan.kind().name().substring(plan.kind().name().indexOf('_') + 1).toLowerCase(Locale.ROOT)
                        + (object == null ? "" : " " + (home == null ? "" : home + ".") + object.name());
                return "the import of " + database + " from " + source.label() + " is under way: the " + what
                        + (named ? " names " + database : " is created while the session's database is " + database
                        + ", whose tables its unqualified names read") + ", whose rows are on the source until the import's cutover; on the"
                        + " shards it would read their partial copy. Create it after the cutover (see 'cleave import"
                        + " --status')";
            }
        }
        return null;
    }

    /** The view or program the statement creates, or null when the parser cannot read it. */
    private static TableName object(Analysis analysis) {
        try {
            Statement s = new SqlParser().parse(analysis.tokens(), analysis.digest());
            return s instanceof Ddl.ObjectDdl o && !o.names().isEmpty() ? o.names().get(0) : null;
        } catch (SqlSyntaxException e) {
            return null;
        }
    }
}
