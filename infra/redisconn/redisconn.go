// Package redisconn opens the Redis a REDIS_URL names: one server
// (redis://[user:password@]host:port/db, rediss:// for TLS) or a Redis
// Cluster, written the way go-redis's ParseClusterURL reads it, with the
// other nodes as addr parameters —
//
//	redis://[user:password@]host1:6379?addr=host2:6379&addr=host3:6379
//
// — or with cluster=true when one address is enough to find the rest, as
// with a managed cluster's configuration endpoint (ElastiCache cluster
// mode: rediss://:token@clustercfg.<name>.<id>.<region>.cache.amazonaws.com:6379?cluster=true).
// Either way the caller gets a redis.UniversalClient, so the code above it
// is the same for both; keys that are used together carry one hash tag so
// they share a slot (see each package's key layout).
//
// The clients fail fast while Redis is down — a one-second dial and one
// retry — so a user waiting on a write hears "not saved" in about a second
// rather than after go-redis's default retries. They also honour their
// callers' context deadlines (ContextTimeoutEnabled): without it go-redis
// waits out its own 3 s read timeout (and the retry) whatever deadline the
// context carries, so a stalled Redis — connections open, nothing coming
// back, as under SIGSTOP — delayed answers whose Redis calls were meant to
// give up after 250 ms (issue #28: 35 of 70 answers over 3 s, 9.9 s at
// worst).
package redisconn

import (
	"errors"
	"net/url"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Fail-fast settings for every client Open makes.
const (
	DialTimeout = time.Second
	MaxRetries  = 1
)

// IsCluster reports whether raw names a Redis Cluster: addr parameters, or
// cluster=true.
func IsCluster(raw string) bool {
	u, err := url.Parse(raw)
	if err != nil {
		return false
	}
	q := u.Query()
	return q.Has("addr") || strings.EqualFold(q.Get("cluster"), "true") || q.Get("cluster") == "1"
}

// Open makes the client for raw. It does not connect: the first command
// dials. Its errors never quote raw (url.Parse's do, password and all).
func Open(raw string) (redis.UniversalClient, error) {
	if raw == "" {
		return nil, errors.New("no Redis URL")
	}
	if IsCluster(raw) {
		opt, err := redis.ParseClusterURL(withoutClusterParam(raw))
		if err != nil {
			return nil, clean(err, raw)
		}
		opt.DialTimeout = DialTimeout
		opt.MaxRetries = MaxRetries
		opt.ContextTimeoutEnabled = true
		return redis.NewClusterClient(opt), nil
	}
	opt, err := redis.ParseURL(raw)
	if err != nil {
		return nil, clean(err, raw)
	}
	opt.DialTimeout = DialTimeout
	opt.MaxRetries = MaxRetries
	opt.ContextTimeoutEnabled = true
	return redis.NewClient(opt), nil
}

// withoutClusterParam drops cluster=…, which ParseClusterURL does not know.
func withoutClusterParam(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	q := u.Query()
	q.Del("cluster")
	u.RawQuery = q.Encode()
	return u.String()
}

// clean rewrites a parse error so that it carries no part of raw's user
// info.
func clean(err error, raw string) error {
	msg := err.Error()
	if ue, ok := errors.AsType[*url.Error](err); ok {
		msg = ue.Err.Error() // url.Error's text quotes the whole URL
	}
	if u, perr := url.Parse(raw); perr == nil && u.User != nil {
		if pw, ok := u.User.Password(); ok && pw != "" {
			msg = strings.ReplaceAll(msg, pw, "[redacted]")
		}
	}
	for _, part := range secretParts(raw) {
		if len(part) >= 3 {
			msg = strings.ReplaceAll(msg, part, "[redacted]")
		}
	}
	return errors.New(msg)
}

// secretParts is whatever in raw may be a password, found without parsing
// it as a URL: the user info before the last '@' after the scheme, however
// many slashes follow the scheme's colon (redis://:pw@h, redis:/:pw@h,
// redis::pw@h), split at colons; and raw itself when it has neither a
// scheme nor an '@' (a bare password pasted where the URL belongs).
func secretParts(raw string) []string {
	rest := raw
	if i := strings.Index(raw, ":"); i >= 0 && isScheme(raw[:i]) {
		rest = raw[i+1:]
	} else if !strings.Contains(raw, "@") {
		return []string{raw}
	}
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return nil
	}
	ui := strings.TrimLeft(rest[:at], "/")
	return strings.Split(ui, ":")
}

// isScheme reports whether s is a URL scheme (RFC 3986: a letter, then
// letters, digits, '+', '-', '.').
func isScheme(s string) bool {
	if s == "" || !('a' <= s[0]|0x20 && s[0]|0x20 <= 'z') {
		return false
	}
	return strings.Trim(strings.ToLower(s), "abcdefghijklmnopqrstuvwxyz0123456789+-.") == ""
}
