package io.cleave.router.unique;

import java.util.List;

/** The global unique keys a table has (kept by the proxy), as routing explanations need them. */
@FunctionalInterface
public interface UniqueKeysView {

    UniqueKeysView NONE = (schema, table) -> List.of();

    /** The table's global unique keys; empty when it has none or {@code schema} is null. */
    List<UniqueIndex> of(String schema, String table);
}
