//go:build !unix

package store

import "os"

// lockDir is a no-op where flock is not available; run one process per
// data directory there.
func lockDir(dir string) (*os.File, error) { return nil, os.MkdirAll(dir, 0o700) }
