package io.cleave.router.sql.ast;

import java.util.List;
import java.util.Locale;

/** The DDL part of {@link AstPrinter}. */
final class DdlPrinter {

    private DdlPrinter() {
    }

    static void print(AstPrinter p, Ddl d) {
        if (d instanceof Ddl.CreateTable ct) {
            p.open("create-table");
            flag(p, ct.temporary(), "temporary");
            flag(p, ct.ifNotExists(), "if-not-exists");
            p.sp().text(ct.table().qualified());
            if (ct.like() != null) {
                p.sp().open("like").sp().text(ct.like().qualified()).close();
            }
            if (!ct.columns().isEmpty()) {
                p.sp().open("columns");
                for (Ddl.ColumnDef c : ct.columns()) {
                    p.sp().open(c.name().value()).sp().text(c.type().name());
                    flag(p, c.autoIncrement(), "auto-increment");
                    flag(p, c.primaryKey(), "primary-key");
                    flag(p, c.unique(), "unique");
                    flag(p, c.notNull(), "not-null");
                    p.close();
                }
                p.close();
            }
            if (!ct.keys().isEmpty()) {
                p.sp().open("keys");
                for (Ddl.KeyDef k : ct.keys()) {
                    p.sp().open(k.type().name().toLowerCase(Locale.ROOT));
                    if (k.name() != null) {
                        p.sp().text(k.name());
                    }
                    names(p, k.columns());
                    for (Expr e : k.expressions()) {
                        p.child(e);
                    }
                    p.close();
                }
                p.close();
            }
            p.clause("as", ct.asQuery());
            p.close();
        } else if (d instanceof Ddl.AlterTable a) {
            p.open("alter-table").sp().text(a.table().qualified());
            if (a.renameTo() != null) {
                p.sp().open("rename-to").sp().text(a.renameTo().qualified()).close();
            }
            p.close();
        } else if (d instanceof Ddl.DropTable dt) {
            p.open("drop-table");
            flag(p, dt.temporary(), "temporary");
            flag(p, dt.ifExists(), "if-exists");
            tables(p, dt.tables());
            p.close();
        } else if (d instanceof Ddl.TruncateTable t) {
            p.open("truncate").sp().text(t.table().qualified()).close();
        } else if (d instanceof Ddl.RenameTable r) {
            p.open("rename-table");
            for (int i = 0; i < r.from().size(); i++) {
                p.sp().open(r.from().get(i).qualified()).sp().text(r.to().get(i).qualified()).close();
            }
            p.close();
        } else if (d instanceof Ddl.CreateIndex ci) {
            p.open("create-index").sp().text(ci.type().name().toLowerCase(Locale.ROOT)).sp().text(ci.name().value())
                    .sp().text(ci.table().qualified());
            names(p, ci.columns());
            for (Expr e : ci.expressions()) {
                p.child(e);
            }
            p.close();
        } else if (d instanceof Ddl.DropIndex di) {
            p.open("drop-index").sp().text(di.name().value()).sp().text(di.table().qualified()).close();
        } else if (d instanceof Ddl.Database db) {
            p.open(kindName(db.kind()));
            flag(p, db.ifClause(), "if");
            if (db.name() != null) {
                p.sp().text(db.name().value());
            }
            p.close();
        } else if (d instanceof Ddl.ObjectDdl o) {
            p.open(kindName(o.kind()));
            tables(p, o.names());
            if (!o.tables().isEmpty()) {
                p.sp().open("on");
                tables(p, o.tables());
                p.close();
            }
            p.clause("as", o.query());
            p.close();
        } else if (d instanceof Ddl.TableMaintenance m) {
            p.open(m.operation().toLowerCase(Locale.ROOT) + "-table");
            tables(p, m.tables());
            p.close();
        }
    }

    private static String kindName(StatementKind kind) {
        return kind.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static void flag(AstPrinter p, boolean on, String word) {
        if (on) {
            p.sp().text(word);
        }
    }

    private static void names(AstPrinter p, List<String> names) {
        p.sp().open("");
        for (int i = 0; i < names.size(); i++) {
            if (i > 0) {
                p.sp();
            }
            p.text(names.get(i));
        }
        p.close();
    }

    private static void tables(AstPrinter p, List<TableName> tables) {
        for (TableName t : tables) {
            p.sp().text(t.qualified());
        }
    }
}
