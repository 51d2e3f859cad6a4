//go:build race

package ledger

// raceEnabled: the race detector changes what escapes and allocates, so
// memory bounds are measured without it.
const raceEnabled = true
