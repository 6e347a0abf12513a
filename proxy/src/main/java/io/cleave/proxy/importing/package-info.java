/**
 * The proxy's part while a database is imported: {@link io.cleave.proxy.importing.ImportReaders} refuses the views and
 * stored programs of other databases that would read the shards' partial copy of it.
 */
package io.cleave.proxy.importing;
