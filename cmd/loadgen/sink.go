package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// sink stands in for Slack: every response_url points at it
// (/r/<run>/<request>), and it records when each answer arrives. Web API
// calls (/api/…) answer ok.
type sink struct {
	base  time.Time // the clock every time in a run is measured from
	srv   *server
	conns atomic.Int64 // connections the bot opened to post answers

	mu  sync.Mutex
	cur *arrivals
}

// arrivals are one run's answers.
type arrivals struct {
	id   string
	at   []atomic.Int64 // since base, +1 so that 0 means not yet
	n    atomic.Int64   // first arrivals
	dups atomic.Int64   // a second answer to one request
	bad  atomic.Int64   // not JSON, no text, or no such request
	more chan struct{}  // signalled on every first arrival
}

func newSink(base time.Time) (*sink, error) {
	s := &sink{base: base}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /r/{run}/{i}", s.answer)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"ok":true}`)
	})
	srv, err := listen(mux, &s.conns)
	if err != nil {
		return nil, err
	}
	s.srv = srv
	return s, nil
}

func (s *sink) url() string { return s.srv.url }

// begin starts a run of at most n requests; answers to earlier runs count as bad.
func (s *sink) begin(id string, n int) *arrivals {
	a := &arrivals{id: id, at: make([]atomic.Int64, n), more: make(chan struct{}, 1)}
	s.mu.Lock()
	s.cur = a
	s.mu.Unlock()
	return a
}

func (s *sink) responseURL(a *arrivals, i int) string {
	return s.srv.url + "/r/" + a.id + "/" + strconv.Itoa(i)
}

func (s *sink) answer(w http.ResponseWriter, r *http.Request) {
	now := int64(time.Since(s.base)) + 1
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	a := s.cur
	s.mu.Unlock()
	io.WriteString(w, "ok") // what Slack answers a response_url post with
	i, err := strconv.Atoi(r.PathValue("i"))
	if a == nil || r.PathValue("run") != a.id || err != nil || i < 0 || i >= len(a.at) {
		if a != nil {
			a.bad.Add(1)
		}
		return
	}
	var m struct {
		Text string `json:"text"`
	}
	if json.Unmarshal(body, &m) != nil || strings.TrimSpace(m.Text) == "" {
		a.bad.Add(1)
	}
	if !a.at[i].CompareAndSwap(0, now) {
		a.dups.Add(1)
		return
	}
	a.n.Add(1)
	select {
	case a.more <- struct{}{}:
	default:
	}
}

// wait returns once want answers have arrived or timeout has passed with
// none arriving.
func (a *arrivals) wait(want int64, timeout time.Duration) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for a.n.Load() < want {
		select {
		case <-a.more:
			t.Reset(timeout)
		case <-t.C:
			return
		}
	}
}
