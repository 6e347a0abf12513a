package io.cleave.manager.imports;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import io.cleave.manager.move.RuleSpec;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The import of one database, as journaled in {@code state/import.json} (replaced durably at every
 * phase). The source's password is not here: it is in {@code state/import-source} (0600) while the
 * source is attached.
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public final class ImportRecord {
    /** The source without its password. */
    public String source;
    public String database;
    public ImportPhase phase = ImportPhase.ATTACHING;
    /** The index the source is attached under (right after the local shards). */
    public int shard = -1;
    /** The move carrying the rows (reserved before the source is attached). */
    public long moveId;
    /** Each table and the rule it gets once imported. */
    public Map<String, RuleSpec> tables = new LinkedHashMap<>();
    /** Each view and the rule it gets (where its tables live). */
    public Map<String, RuleSpec> views = new LinkedHashMap<>();
    /** Procedures and functions created on every shard, as "PROCEDURE name". */
    public List<String> routines = new ArrayList<>();
    public String started;
    public String ended;
    /** Why it failed or waits. */
    public String message;
}
