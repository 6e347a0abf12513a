/**
 * Stored programs: what a routine's body names and does ({@link io.cleave.router.routine.RoutineProfiler}),
 * and where a CALL of it can run so that it sees what one server would show it
 * ({@link io.cleave.router.routine.RoutinePlacement}). Pure: the proxy loads the bodies and
 * brings them here.
 */
package io.cleave.router.routine;
