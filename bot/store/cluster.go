package store

import (
	"errors"

	"github.com/redis/go-redis/v9"

	"github.com/gpubot/gpubot/infra/redisconn"
)

// Client is the client every package should use: Redis itself for one
// server or the embedded one, the cluster client when REDIS_URL names a
// Redis Cluster (infra/redisconn: addr= parameters or cluster=true).
// On a cluster, Redis is a client of the first seed node only, kept so that
// code still typed *redis.Client fails with MOVED errors rather than a nil
// pointer; such code must move to Client (redis.UniversalClient).
func (s *Store) Client() redis.UniversalClient {
	if s.cluster != nil {
		return s.cluster
	}
	return s.Redis
}

// New makes the store for a non-empty REDIS_URL without checking that
// Redis answers, for bot serve, which starts without it (Open pings).
func New(url string) (*Store, error) { return open(url) }

// open makes the store's clients for a REDIS_URL, without connecting.
func open(url string) (*Store, error) {
	c, err := redisconn.Open(url)
	if err != nil {
		return nil, err
	}
	switch c := c.(type) {
	case *redis.ClusterClient:
		seed := &redis.Options{Addr: c.Options().Addrs[0], Username: c.Options().Username, Password: c.Options().Password,
			TLSConfig: c.Options().TLSConfig, DialTimeout: redisconn.DialTimeout, MaxRetries: redisconn.MaxRetries, ContextTimeoutEnabled: true}
		return &Store{Redis: redis.NewClient(seed), cluster: c}, nil
	case *redis.Client:
		return &Store{Redis: c}, nil
	}
	c.Close()
	return nil, errUnknownClient
}

var errUnknownClient = errors.New("redisconn returned a client of an unknown kind")

func (s *Store) closeCluster() error {
	if s.cluster == nil {
		return nil
	}
	return s.cluster.Close()
}
