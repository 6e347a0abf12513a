package io.cleave.manager.coordination;

import java.util.Optional;

/**
 * What etcd says of a standby pair at one revision.
 *
 * @param epoch   the pair's epoch; 0 while no home has claimed it yet
 * @param primary the primary's claim while its lease lives; empty once it lapsed (or none was made)
 */
public record PairView(long epoch, Optional<PrimaryClaim> primary) {
}
