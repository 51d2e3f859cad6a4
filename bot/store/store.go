// Package store connects gpubot to Redis: the one given by REDIS_URL, or an
// embedded miniredis when none is configured, so the bot runs with no setup.
package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
)

// Store is a Redis client plus, in embedded mode, the server behind it.
type Store struct {
	Redis    *redis.Client
	Embedded bool
	mini     *miniredis.Miniredis
	dir      string   // embedded mode: the data directory
	lock     *os.File // embedded mode: the data directory's flock, held while open
	journal  *journal // embedded mode with a directory: the write log
	stop     chan struct{}
	done     chan struct{}
	cluster  *redis.ClusterClient // REDIS_URL named a Redis Cluster (cluster.go)
}

// expiryTick is how often the embedded Redis's clock is moved on.
const expiryTick = 10 * time.Second

// clock moves miniredis's clock with the real one, so keys with a TTL
// (de-duplication marks, locks, post records) expire in a long-running
// embedded bot as they would on a real Redis; miniredis only expires keys
// when told time has passed.
func (s *Store) clock(every time.Duration) {
	defer close(s.done)
	t := time.NewTicker(every)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-s.stop:
			return
		case now := <-t.C:
			s.mini.FastForward(now.Sub(last))
			last = now
		}
	}
}

// Open connects to url, or starts an embedded miniredis when url is empty.
func Open(ctx context.Context, url string) (*Store, error) {
	if url == "" {
		m := miniredis.NewMiniRedis()
		if err := m.StartAddr("127.0.0.1:0"); err != nil {
			return nil, fmt.Errorf("start embedded redis: %w", err)
		}
		s := &Store{Redis: redis.NewClient(&redis.Options{Addr: m.Addr()}), Embedded: true, mini: m, stop: make(chan struct{}), done: make(chan struct{})}
		go s.clock(expiryTick)
		return s, nil
	}
	// Fail fast when Redis is down (redisconn): a user waiting on a ledger
	// write should hear "not saved" in about a second, not after go-redis's
	// default three retries with five-second dials. A cluster URL gets a
	// cluster client (cluster.go).
	s, err := open(url)
	if err != nil {
		return nil, fmt.Errorf("parse REDIS_URL: %w", err)
	}
	if err := s.Ping(ctx); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Ping checks that Redis answers within a second.
func (s *Store) Ping(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if err := s.Client().Ping(ctx).Err(); err != nil {
		return fmt.Errorf("redis ping: %w", err)
	}
	return nil
}

// Close releases the client and stops an embedded server.
func (s *Store) Close() error {
	var jerr error
	if s.journal != nil {
		jerr = s.journal.close()
	}
	err := s.Redis.Close()
	if err == nil {
		err = jerr
	}
	if s.lock != nil {
		s.lock.Close() // releases the flock
	}
	if s.mini != nil {
		close(s.stop)
		<-s.done
		s.mini.Close()
	}
	return errors.Join(err, s.closeCluster())
}
