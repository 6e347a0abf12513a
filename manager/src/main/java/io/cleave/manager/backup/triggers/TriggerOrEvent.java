package io.cleave.manager.backup.triggers;

import java.util.List;

/**
 * A trigger or an event as a backup keeps it, with the session context it was created in (as
 * mariadb-dump keeps it): {@code create} is SHOW CREATE's statement (with its DEFINER), {@code sqlMode},
 * {@code timeZone} (events only; null for triggers), the client character set and connection collation
 * the body was parsed with, and the shards of the backed-up home that held it (triggers: every shard, as
 * the proxy makes them; events: the default shard).
 */
public record TriggerOrEvent(Kind kind, String schema, String name, String definer, List<Integer> shards,
                             String sqlMode, String timeZone, String characterSetClient, String collationConnection,
                             String create) {

    public enum Kind { TRIGGER, EVENT }

    public TriggerOrEvent {
        shards = shards == null ? List.of() : List.copyOf(shards);
    }

    public String qualifiedName() {
        return schema + "." + name;
    }

    /** The same object, with the same definition and context, found on {@code shard} as well. */
    TriggerOrEvent alsoOn(int shard) {
        List<Integer> more = new java.util.ArrayList<>(shards);
        more.add(shard);
        return new TriggerOrEvent(kind, schema, name, definer, more, sqlMode, timeZone, characterSetClient,
                collationConnection, create);
    }

    /** Same object and definition (the shards aside). */
    boolean sameDefinition(TriggerOrEvent o) {
        return kind == o.kind && schema.equals(o.schema) && name.equals(o.name) && java.util.Objects.equals(definer, o.definer)
                && java.util.Objects.equals(sqlMode, o.sqlMode) && java.util.Objects.equals(timeZone, o.timeZone)
                && java.util.Objects.equals(characterSetClient, o.characterSetClient)
                && java.util.Objects.equals(collationConnection, o.collationConnection) && create.equals(o.create);
    }
}
