package redisconn

import (
	"context"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

func TestOpenPicksTheClient(t *testing.T) {
	for _, tt := range []struct {
		url     string
		cluster bool
		addrs   int
	}{
		{"redis://127.0.0.1:6379/0", false, 1},
		{"rediss://:tok@cache.example:6379", false, 1},
		{"redis://127.0.0.1:7000?addr=127.0.0.1:7001&addr=127.0.0.1:7002", true, 3},
		{"rediss://:tok@clustercfg.x.cache.amazonaws.com:6379?cluster=true", true, 1},
	} {
		c, err := Open(tt.url)
		if err != nil {
			t.Fatalf("Open(%s): %v", tt.url, err)
		}
		cc, isCluster := c.(*redis.ClusterClient)
		if isCluster != tt.cluster {
			t.Errorf("Open(%s) is a %T, want cluster=%v", tt.url, c, tt.cluster)
		}
		if isCluster {
			if n := len(cc.Options().Addrs); n != tt.addrs {
				t.Errorf("Open(%s): %d seed addresses, want %d", tt.url, n, tt.addrs)
			}
			if o := cc.Options(); o.DialTimeout != DialTimeout || o.MaxRetries != MaxRetries {
				t.Errorf("cluster options not fail-fast: %v, %d", o.DialTimeout, o.MaxRetries)
			}
		} else if o := c.(*redis.Client).Options(); o.DialTimeout != DialTimeout || o.MaxRetries != MaxRetries {
			t.Errorf("options not fail-fast: %v, %d", o.DialTimeout, o.MaxRetries)
		}
		c.Close()
	}
}

func TestOpenErrorsKeepThePasswordOut(t *testing.T) {
	for _, raw := range []string{
		"redis://user:hunter2-pw@localhost:notaport/0",
		"redis://:hunter2-pw@host:6379/notadb",
		"redis://:hunter2-pw@h1:7000?addr=broken&addr=h3:7002",
		"redis://:hunter2-pw@h1:7000?addr=h2:7001&bogus=1",
		// issue #28 item 9: one slash, and a bare password
		"redis:/:hunter2-pw@host:6379",
		"redis:/user:hunter2-pw@host:6379/0",
		"hunter2-pw",
	} {
		_, err := Open(raw)
		if err == nil {
			t.Errorf("Open(%s) accepted it", raw)
			continue
		}
		if strings.Contains(err.Error(), "hunter2") {
			t.Errorf("Open(%s) error shows the password: %v", raw, err)
		}
	}
}

// TestContextDeadlinesAreHonoured: a Redis that accepts connections and
// never answers (a redis-server stopped with SIGSTOP looks like this) costs
// a call its context's deadline, not go-redis's 3 s read timeout and a
// retry (ContextTimeoutEnabled; issue #28 item 4: 9.9 s answers).
func TestContextDeadlinesAreHonoured(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
			go io.Copy(io.Discard, c) // read everything, answer nothing
		}
	}()
	for _, raw := range []string{"redis://" + ln.Addr().String(), "redis://" + ln.Addr().String() + "?cluster=true"} {
		c, err := Open(raw)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 3 { // a fresh connection, then pooled ones
			ctx, cancel := context.WithTimeout(context.Background(), 250*time.Millisecond)
			start := time.Now()
			err := c.SetNX(ctx, "k", 1, time.Hour).Err()
			took := time.Since(start)
			cancel()
			if err == nil {
				t.Fatalf("%s: a Redis that never answers answered", raw)
			}
			// 250 ms deadline + scheduling slack; go-redis's own read
			// timeout alone is 3 s.
			if took > time.Second {
				t.Errorf("%s call %d: took %v with a 250 ms deadline, want it honoured", raw, i, took.Round(time.Millisecond))
			}
		}
		c.Close()
	}
}
