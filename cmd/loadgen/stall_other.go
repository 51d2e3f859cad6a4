//go:build !unix

package main

import (
	"errors"
	"os"
)

var errNoStall = errors.New("-redis-stall needs SIGSTOP (unix only)")

func pause(*os.Process) error  { return errNoStall }
func resume(*os.Process) error { return errNoStall }
