package main

import (
	"os"
	"testing"
)

// TestMain keeps this package's tests off the network: the public
// catalogues are on by default in a real deployment, so every test that
// runs `serve` would otherwise reach GitHub and S3. A test that wants them
// sets CATALOG_PUBLIC=on and points the URLs at a loopback server.
func TestMain(m *testing.M) {
	if os.Getenv("CATALOG_PUBLIC") == "" {
		os.Setenv("CATALOG_PUBLIC", "off")
	}
	os.Exit(m.Run())
}
