package io.cleave.manager.schema;

import io.cleave.proxy.server.SchemaDriftLog.UnfinishedChange;
import io.cleave.router.sql.ast.Ddl;
import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.ast.TableName;
import io.cleave.router.sql.parse.SqlParser;
import io.cleave.router.sql.parse.SqlSyntaxException;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The objects that recorded changes not applied everywhere name: their shards differ because of
 * the change, which repair completes, so repair must not make them alike the other way (create a
 * dropped table again). A change it cannot read counts as naming everything in its schema.
 */
final class PendingChanges {

    private final Set<String> objects = new HashSet<>();
    private final Set<String> schemas = new HashSet<>();

    PendingChanges(List<UnfinishedChange> changes) {
        for (UnfinishedChange c : changes) {
            String schema = c.schema() == null ? "" : c.schema();
            Statement s;
            try {
                s = SqlParser.parse(c.statement());
            } catch (SqlSyntaxException e) {
                schemas.add(key(schema));
                continue;
            }
            if (s instanceof Ddl.Database db) {
                schemas.add(key(db.name().value()));
            } else if (s instanceof Ddl ddl) {
                for (TableName t : ddl.tables()) {
                    objects.add(key((t.schema() != null ? t.schema() : schema) + "." + t.name()));
                }
                if (s instanceof Ddl.ObjectDdl o) {
                    for (TableName t : o.names()) {
                        objects.add(key((t.schema() != null ? t.schema() : schema) + "." + t.name()));
                    }
                }
            } else {
                schemas.add(key(schema));
            }
        }
    }

    /** Whether a catalog object ({@code table shop.t}, {@code schema shop}) is named by a pending change. */
    boolean names(String object) {
        String[] kindAndName = object.split(" ", 2);
        String name = key(kindAndName[1]);
        int dot = name.indexOf('.');
        String schema = dot < 0 ? name : name.substring(0, dot);
        return objects.contains(name) || schemas.contains(schema);
    }

    private static String key(String name) {
        return name.toLowerCase(Locale.ROOT);
    }
}
