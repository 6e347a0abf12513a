package io.cleave.router.sql.ast;

import java.util.List;
import java.util.Locale;

/** The non-query half of {@link AstPrinter}. */
final class StatementPrinter {

    private StatementPrinter() {
    }

    static void print(AstPrinter p, Statement s) {
        if (s instanceof Insert i) {
            insert(p, i);
        } else if (s instanceof Update u) {
            p.open("update");
            words(p, u.modifiers());
            p.list("tables", u.tables());
            assignments(p, "set", u.assignments());
            p.clause("where", u.where());
            p.tail(u.orderBy(), u.limit());
            p.close();
        } else if (s instanceof Delete d) {
            p.open("delete");
            words(p, d.modifiers());
            p.list("targets", d.targets());
            p.list("from", d.from());
            p.clause("where", d.where());
            p.tail(d.orderBy(), d.limit());
            p.list("returning", d.returning());
            p.close();
        } else if (s instanceof SetStatement set) {
            p.open("set");
            for (SetStatement.Item item : set.items()) {
                p.sp();
                setItem(p, item);
            }
            p.close();
        } else if (s instanceof TransactionStatement t) {
            transaction(p, t);
        } else if (s instanceof Ddl d) {
            DdlPrinter.print(p, d);
        } else if (s instanceof UtilityStatement u) {
            utility(p, u);
        }
    }

    private static void words(AstPrinter p, List<String> words) {
        for (String w : words) {
            p.sp().text(w.toLowerCase(Locale.ROOT));
        }
    }

    private static void assignments(AstPrinter p, String head, List<Assignment> list) {
        if (list.isEmpty()) {
            return;
        }
        p.sp().open(head);
        for (Assignment a : list) {
            p.sp().open("=").child(a.column()).child(a.value()).close();
        }
        p.close();
    }

    private static void insert(AstPrinter p, Insert i) {
        p.open(i.replace() ? "replace" : "insert");
        words(p, i.modifiers());
        p.sp().text(i.table().qualified());
        p.list("columns", i.columns());
        Insert.Source src = i.source();
        if (src instanceof Insert.Values v) {
            p.sp().open("values");
            for (Insert.Row row : v.rows()) {
                p.sp().open("row");
                for (Expr e : row.values()) {
                    p.child(e);
                }
                p.close();
            }
            p.close();
        } else if (src instanceof Insert.SetList set) {
            assignments(p, "set", set.assignments());
        } else if (src instanceof Insert.FromQuery q) {
            p.child(q.query());
        }
        if (i.rowAlias() != null) {
            p.sp().open("as").sp().text(i.rowAlias().value()).list("columns", i.rowAliasColumns()).close();
        }
        assignments(p, "on-duplicate", i.onDuplicateKeyUpdate());
        p.list("returning", i.returning());
        p.close();
    }

    private static void setItem(AstPrinter p, SetStatement.Item item) {
        if (item instanceof SetStatement.Variable v) {
            String target;
            if (v.user()) {
                target = "@" + v.name();
            } else if (v.scope() == VariableScope.DEFAULT) {
                target = v.name();
            } else {
                target = v.scope().name().toLowerCase(Locale.ROOT) + "." + v.name();
            }
            p.open("=").sp().text(target).child(v.value()).close();
        } else if (item instanceof SetStatement.Names n) {
            p.open("names").sp().text(n.charset() == null ? "DEFAULT" : n.charset());
            if (n.collation() != null) {
                p.sp().open("collate").sp().text(n.collation()).close();
            }
            p.close();
        } else if (item instanceof SetStatement.Charset c) {
            p.open("charset").sp().text(c.charset() == null ? "DEFAULT" : c.charset()).close();
        }
    }

    private static void transaction(AstPrinter p, TransactionStatement t) {
        if (t instanceof TransactionStatement.Begin b) {
            p.open("begin");
            if (b.readOnly()) {
                p.sp().text("read-only");
            }
            if (b.readWrite()) {
                p.sp().text("read-write");
            }
            if (b.consistentSnapshot()) {
                p.sp().text("consistent-snapshot");
            }
            p.close();
        } else if (t instanceof TransactionStatement.Commit c) {
            p.open("commit");
            chainRelease(p, c.chain(), c.release());
            p.close();
        } else if (t instanceof TransactionStatement.Rollback r) {
            p.open("rollback");
            chainRelease(p, r.chain(), r.release());
            if (r.savepoint() != null) {
                p.sp().open("to").sp().text(r.savepoint().value()).close();
            }
            p.close();
        } else if (t instanceof TransactionStatement.Savepoint s) {
            p.open(s.release() ? "release-savepoint" : "savepoint").sp().text(s.name().value()).close();
        } else if (t instanceof TransactionStatement.Xa x) {
            p.open("xa").sp().text(x.action());
            for (Expr part : x.xidParts()) {
                p.child(part);
            }
            p.close();
        } else if (t instanceof TransactionStatement.SetTransaction st) {
            p.open("set-transaction");
            if (st.scope() != VariableScope.DEFAULT) {
                p.sp().text(st.scope().name().toLowerCase(Locale.ROOT));
            }
            if (st.isolation() != null) {
                p.sp().text('"' + st.isolation() + '"');
            }
            if (st.accessMode() != null) {
                p.sp().text('"' + st.accessMode() + '"');
            }
            p.close();
        }
    }

    private static void chainRelease(AstPrinter p, Boolean chain, Boolean release) {
        if (chain != null) {
            p.sp().text(chain ? "chain" : "no-chain");
        }
        if (release != null) {
            p.sp().text(release ? "release" : "no-release");
        }
    }

    private static void utility(AstPrinter p, UtilityStatement u) {
        if (u instanceof UtilityStatement.Use use) {
            p.open("use").sp().text(use.schema().value()).close();
        } else if (u instanceof UtilityStatement.Show s) {
            p.open("show");
            if (s.full()) {
                p.sp().text("full");
            }
            if (s.scope() != VariableScope.DEFAULT) {
                p.sp().text(s.scope().name().toLowerCase(Locale.ROOT));
            }
            p.sp().text('"' + s.what() + '"');
            if (s.table() != null) {
                p.sp().open("table").sp().text(s.table().qualified()).close();
            }
            if (s.schema() != null) {
                p.sp().open("schema").sp().text(s.schema().value()).close();
            }
            p.clause("like", s.like()).clause("where", s.where()).close();
        } else if (u instanceof UtilityStatement.Describe d) {
            p.open("describe").sp().text(d.table().qualified());
            if (d.column() != null) {
                p.sp().text(d.column().value());
            }
            p.close();
        } else if (u instanceof UtilityStatement.Explain e) {
            p.open(e.analyze() ? "explain-analyze" : "explain");
            if (e.format() != null) {
                p.sp().text("format=" + e.format());
            }
            p.child(e.statement()).close();
        } else if (u instanceof UtilityStatement.LockTables l) {
            p.open("lock-tables");
            for (UtilityStatement.TableLock t : l.locks()) {
                p.sp().open(t.table().qualified());
                if (t.alias() != null) {
                    p.sp().text(t.alias());
                }
                p.sp().text(t.write() ? "write" : "read").close();
            }
            p.close();
        } else if (u instanceof UtilityStatement.UnlockTables) {
            p.open("unlock-tables").close();
        } else if (u instanceof UtilityStatement.Prepare pr) {
            p.open("prepare").sp().text(pr.name().value()).child(pr.source()).close();
        } else if (u instanceof UtilityStatement.Execute ex) {
            p.open("execute").sp().text(ex.name().value());
            for (Expr e : ex.using()) {
                p.child(e);
            }
            p.close();
        } else if (u instanceof UtilityStatement.Deallocate d) {
            p.open("deallocate").sp().text(d.name().value()).close();
        } else if (u instanceof UtilityStatement.Call c) {
            p.open("call").sp().text(c.procedure().qualified());
            for (Expr e : c.args()) {
                p.child(e);
            }
            p.close();
        } else if (u instanceof UtilityStatement.Do d) {
            p.open("do");
            for (Expr e : d.exprs()) {
                p.child(e);
            }
            p.close();
        } else if (u instanceof UtilityStatement.LoadData l) {
            p.open("load-data").sp().text(l.table().qualified()).close();
        } else if (u instanceof UtilityStatement.Kill k) {
            p.open(k.queryOnly() ? "kill-query" : "kill").child(k.id()).close();
        } else if (u instanceof UtilityStatement.Other o) {
            p.open("other").sp().text(o.kind().name()).sp().text('"' + o.words() + '"');
            if (o.table() != null) {
                p.sp().text(o.table().qualified());
            }
            p.close();
        }
    }
}
