//go:build unix

package main

import "syscall"

// lowerPriority makes the flood process yield the CPUs to everything else
// (nice 19): a real attacker's CPU is on its own machines, and on a shared
// box the flood would otherwise measure the scheduler, not the bot.
func lowerPriority(pid int) { syscall.Setpriority(syscall.PRIO_PROCESS, pid, 19) }
