package redisconn

import (
	"strings"
	"testing"

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
