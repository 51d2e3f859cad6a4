//go:build unix

package main

import (
	"os"
	"syscall"
)

// pause stops p (SIGSTOP): the kernel still accepts its connections and
// buffers what clients send, but nothing is answered.
func pause(p *os.Process) error { return p.Signal(syscall.SIGSTOP) }

func resume(p *os.Process) error { return p.Signal(syscall.SIGCONT) }
