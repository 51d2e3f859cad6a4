package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// flood is hostile traffic without the signing secret: clients that each
// send one request after another, with a fresh timestamp, a well-formed but
// wrong signature and a large body, as fast as the bot answers them. It is
// what the bot must survive in HTTP mode: the body has to be read before
// its signature can be checked.
type flood struct {
	clients int
	size    int
	path    string

	mu     sync.Mutex
	status map[int]int // responses by status (0: no response)
}

func newFlood(clients, size int, path string) *flood {
	return &flood{clients: clients, size: size, path: path, status: map[int]int{}}
}

// run floods base+path until ctx ends; it returns the requests sent.
func (f *flood) run(ctx context.Context, base string) int {
	body := bytes.Repeat([]byte("x"), f.size) // one buffer, shared by every request
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = f.clients
	tr.DisableCompression = true
	c := &http.Client{Transport: tr, Timeout: 15 * time.Second}
	defer tr.CloseIdleConnections()
	sig := "v0=" + strings.Repeat("0f", 32)
	var wg sync.WaitGroup
	var mu sync.Mutex
	sent := 0
	for range f.clients {
		wg.Go(func() {
			for ctx.Err() == nil {
				req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+f.path, bytes.NewReader(body))
				if err != nil {
					return
				}
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(time.Now().Unix(), 10))
				req.Header.Set("X-Slack-Signature", sig)
				code := 0
				resp, err := c.Do(req)
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					code = resp.StatusCode
				} else if ctx.Err() != nil {
					return
				}
				f.mu.Lock()
				f.status[code]++
				f.mu.Unlock()
				mu.Lock()
				sent++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return sent
}

// floodProcess runs the flood in a child loadgen process for dur, so that
// the attacker's CPU and memory are not counted as the bot's (a real
// attacker's are on its own machines), and returns its summary.
func floodProcess(ctx context.Context, o options, base string, dur time.Duration) (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	// It stops itself after dur; ctx only kills one that hangs well past it.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), dur+15*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "-flood-at", base, "-flood", strconv.Itoa(o.flood),
		"-flood-size", strconv.Itoa(o.floodSize), "-flood-path", o.floodPath, "-duration", dur.String())
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		return "", fmt.Errorf("flood process: %w", err)
	}
	lowerPriority(cmd.Process.Pid)
	if err := cmd.Wait(); err != nil {
		return "", fmt.Errorf("flood process: %w", err)
	}
	return strings.TrimSpace(out.String()), nil
}

// summary lists the responses by status, most frequent first.
func (f *flood) summary() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	type kv struct{ code, n int }
	var all []kv
	for c, n := range f.status {
		all = append(all, kv{c, n})
	}
	sort.Slice(all, func(i, j int) bool { return all[i].n > all[j].n })
	var parts []string
	for _, x := range all {
		name := strconv.Itoa(x.code)
		if x.code == 0 {
			name = "no response"
		}
		parts = append(parts, fmt.Sprintf("%d × %s", x.n, name))
	}
	return strings.Join(parts, ", ")
}
