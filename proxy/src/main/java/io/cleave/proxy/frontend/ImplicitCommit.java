package io.cleave.proxy.frontend;

import io.cleave.router.plan.ParameterValues;
import io.cleave.router.plan.Pin;
import io.cleave.router.plan.Plan;
import io.cleave.router.plan.SessionAction;
import io.cleave.router.sql.ast.StatementKind;

/**
 * Statements that end the session's open transaction before they run, as a server's
 * implicit-commit list says: structure changes (not of temporary tables), LOCK TABLES, account
 * and privilege changes, FLUSH, plugin (un)installs, table maintenance, and SET autocommit = 1
 * while autocommit is off. The proxy commits the transaction on every shard it reached first; the
 * statement itself then runs outside any transaction (an XA branch would refuse it with 1399).
 */
final class ImplicitCommit {

    private ImplicitCommit() {
    }

    /** Whether {@code plan} commits an open transaction before it runs. */
    static boolean before(Plan plan) {
        if (plan instanceof Plan.MultiStatement multi) {
            plan = multi.plan();
        }
        if (plan instanceof Plan.Session s && s.action() instanceof SessionAction.UnlockedTables) {
            return true;
        }
        if (plan instanceof Plan.Local l && l.query() == io.cleave.router.plan.LocalQuery.ACCOUNT_STATEMENT) {
            return true;
        }
        if (!(plan instanceof Plan.Route route)) {
            return false;
        }
        StatementKind kind = route.kind();
        if (kind.isDdl()) {
            Pin pin = route.effects().pin().pin();
            return pin != Pin.TEMPORARY_TABLE && pin != Pin.DROP_TEMPORARY_TABLE;
        }
        return switch (kind) {
            case LOCK_TABLES, GRANT, REVOKE, USER_ADMIN, SET_PASSWORD, INSTALL, UNINSTALL, FLUSH, TABLE_MAINTENANCE ->
                    true;
            default -> false;
        };
    }

    /**
     * Whether {@code plan} commits the session's open transaction before it runs: {@link #before}, or
     * SET autocommit = 1 (as a constant) while autocommit is off.
     */
    static boolean before(Plan plan, boolean autocommit, ParameterValues values) {
        if (before(plan)) {
            return true;
        }
        if (autocommit || !(plan instanceof Plan.Session s) || !(s.action() instanceof SessionAction.SetVariables set)) {
            return false;
        }
        SessionAction.Autocommit only = set.autocommitOnly();
        return only != null && Boolean.TRUE.equals(SettingStatements.autocommitValue(only, values));
    }
}
