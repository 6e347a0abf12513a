/**
 * The shards' schemas kept alike: where they differ ({@link io.cleave.manager.schema.SchemaDrift},
 * shown by {@code cleave status} and checked when the daemon starts), the structure changes the
 * proxy could not apply everywhere nor undo ({@link io.cleave.manager.schema.DriftJournal}), and
 * {@code cleave repair} ({@link io.cleave.manager.schema.SchemaRepair}).
 */
package io.cleave.manager.schema;
