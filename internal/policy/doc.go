// Package policy holds gpubot's structural rules as tests, in the manner of
// go/build/deps_test.go: which internal package may import which
// (deps_test.go), which packages may use each outside system's client, and
// where numbers, money, currency symbols, language choice and script
// detection may be written (present_test.go); and that tests use bottest's
// one golden helper, clock and real-Redis helper (testhelpers_test.go). It
// has no code; the rules are read at test time from `go list` and the
// sources, with no network.
package policy
