package io.cleave.router.plan;

import io.cleave.router.sql.ast.Query;
import io.cleave.router.sql.ast.Select;
import io.cleave.router.topology.TableRule;

import java.util.ArrayList;
import java.util.List;

/**
 * The parts {@link KeyAnalyzer} finds in a statement: query expressions (units), their SELECT
 * blocks, the tables and derived tables in each block, and the equalities between sharding columns.
 */
final class QueryParts {

    private QueryParts() {
    }

    /** Where a query block sits in the statement. */
    enum Role { TOP, DERIVED, CTE, SUBQUERY }

    /** One table in a query block. */
    static final class Binding {
        final String exposed;
        final String table;
        final TableRule rule;
        final Block block;
        final boolean system;
        /** On the nullable side of an outer join of its block. */
        final boolean nullable;
        final List<List<KeyValue>> restrictions = new ArrayList<>();
        int id = -1;
        /** The schema as the statement names it, null for the session's. */
        String schema;

        Binding(String exposed, String table, TableRule rule, Block block, boolean system, boolean nullable) {
            this.exposed = exposed;
            this.table = table;
            this.rule = rule;
            this.block = block;
            this.system = system;
            this.nullable = nullable;
        }

        TableRule.Sharded sharded() {
            return rule instanceof TableRule.Sharded s ? s : null;
        }

        String describe() {
            TableRule.Sharded s = sharded();
            return s != null ? table + " (sharded by " + s.column() + ")"
                    : rule instanceof TableRule.Reference ? table + " (a reference table)" : table;
        }
    }

    /** A derived table or a CTE reference in a block's FROM. */
    record DerivedSource(Unit unit, String alias, boolean nullable, boolean lateral) {
    }

    /** An analyzed query expression: a SELECT, or the SELECTs of a set operation. */
    static final class Unit {
        final Query query;
        final String cteName;
        final boolean recursive;
        final List<Block> branches = new ArrayList<>();
        boolean setOperation;
        boolean unionAll = true;
        /** LIMIT or ORDER BY on the set operation (or parenthesized query) as a whole. */
        boolean limited;
        boolean ordered;
        int references;

        Unit(Query query, String cteName, boolean recursive) {
            this.query = query;
            this.cteName = cteName;
            this.recursive = recursive;
        }
    }

    /** One SELECT block (or the statement itself for UPDATE/DELETE and LOCK TABLES). */
    static final class Block {
        final Block parent;
        final Role role;
        /** A subquery of EXISTS or IN that is a condition its outer rows must meet. */
        final boolean positive;
        final Select select;
        final List<Binding> tables = new ArrayList<>();
        final List<DerivedSource> derived = new ArrayList<>();
        final List<Unit> subqueries = new ArrayList<>();

        Block(Block parent, Role role, boolean positive, Select select) {
            this.parent = parent;
            this.role = role;
            this.positive = positive;
            this.select = select;
        }

        boolean isAncestorOf(Block b) {
            for (Block x = b.parent; x != null; x = x.parent) {
                if (x == this) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * An equality of two sharding columns of one keyspace. {@code aToB}: a key value that holds
     * {@code a}'s rows holds {@code b}'s relevant rows too. For a correlation, {@code a} is the
     * outer table and {@code b} the subquery's.
     */
    record Edge(Binding a, Binding b, boolean aToB, boolean bToA, boolean correlation) {
    }
}
