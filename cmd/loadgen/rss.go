//go:build unix

package main

import (
	"bytes"
	"os"
	"strconv"
	"syscall"
	"time"
)

// meter measures a run's CPU time (this process, every thread) and peak
// resident memory (VmHWM; reset at the start of the run where the kernel
// allows it, so each run shows its own peak).
type meter struct {
	cpu   time.Duration
	reset bool
}

func startMeter() meter {
	settle()
	reset := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil
	return meter{cpu: cpuTime(), reset: reset}
}

// stop returns the CPU time used since start, the peak RSS in bytes (-1
// when unknown) and whether that peak is the run's own.
func (m meter) stop() (time.Duration, int64, bool) {
	return cpuTime() - m.cpu, peakRSS(), m.reset
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// peakRSS reads VmHWM from /proc/self/status.
func peakRSS() int64 {
	raw, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	for line := range bytes.Lines(raw) {
		if v, ok := bytes.CutPrefix(line, []byte("VmHWM:")); ok {
			f := bytes.Fields(v)
			if len(f) >= 1 {
				if kb, err := strconv.ParseInt(string(f[0]), 10, 64); err == nil {
					return kb << 10
				}
			}
		}
	}
	return -1
}
