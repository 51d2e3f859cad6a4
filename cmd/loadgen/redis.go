package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// redisServer is a redis-server of loadgen's own, for the soak's outages:
// append-only with fsync on every write, on a free loopback port.
type redisServer struct {
	bin, dir string
	port     int
	cmd      *exec.Cmd
}

func startRedis(bin string) (*redisServer, error) {
	path, err := exec.LookPath(bin)
	if err != nil {
		return nil, fmt.Errorf("-redis-kill needs redis-server (set REDIS_SERVER_BIN): %w", err)
	}
	dir, err := os.MkdirTemp("", "loadgen-redis-")
	if err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	r := &redisServer{bin: path, dir: dir, port: port}
	return r, r.start()
}

func (r *redisServer) url() string { return "redis://127.0.0.1:" + strconv.Itoa(r.port) + "/0" }

func (r *redisServer) start() error {
	r.cmd = exec.Command(r.bin, "--bind", "127.0.0.1", "--port", strconv.Itoa(r.port), "--dir", r.dir,
		"--appendonly", "yes", "--appendfsync", "always", "--save", "")
	if err := r.cmd.Start(); err != nil {
		return err
	}
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:" + strconv.Itoa(r.port), MaxRetries: -1})
	defer c.Close()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if c.Ping(context.Background()).Err() == nil {
			return nil
		}
	}
	return fmt.Errorf("redis-server on port %d did not start", r.port)
}

// kill ends the server at once (SIGKILL): only the append-only file remains.
func (r *redisServer) kill() {
	r.cmd.Process.Kill()
	r.cmd.Wait()
}

func (r *redisServer) close() {
	r.kill()
	os.RemoveAll(r.dir)
}

// outages kills the server every `every`, keeps it down for `down`, and
// starts it again, until ctx ends; it returns how many times it did. With
// stall it stops the server (SIGSTOP: its connections stay open and
// nothing is answered, the red team's stalled Redis) and continues it.
func (r *redisServer) outages(every, down time.Duration, stall bool) func(ctx context.Context) int {
	return func(ctx context.Context) int {
		n := 0
		for {
			select {
			case <-ctx.Done():
				return n
			case <-time.After(every - down):
			}
			if stall {
				if err := pause(r.cmd.Process); err != nil {
					fmt.Fprintln(os.Stderr, "loadgen:", err)
					return n
				}
			} else {
				r.kill()
			}
			n++
			select {
			case <-ctx.Done():
			case <-time.After(down):
			}
			if stall {
				if err := resume(r.cmd.Process); err != nil {
					fmt.Fprintln(os.Stderr, "loadgen:", err)
					return n
				}
				continue
			}
			if err := r.start(); err != nil {
				fmt.Fprintln(os.Stderr, "loadgen:", err)
				return n
			}
		}
	}
}
