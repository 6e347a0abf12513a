/**
 * A database being imported, as the rest of the home sees it: until its cutover its rows are on the attached source,
 * and the shards hold a partial copy. {@link io.cleave.router.importing.DatabaseReferences} tells whether SQL text (a
 * view's definition, a routine's body, a statement) names that database, so that what would read the copy instead of
 * the source is refused.
 */
package io.cleave.router.importing;
