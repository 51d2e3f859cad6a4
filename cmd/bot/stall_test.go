package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"

	"github.com/gpubot/gpubot/bot/bottest"
)

// stallProxy forwards TCP to a Redis until Stall: from then on it accepts
// connections and reads what is sent, but passes nothing on and answers
// nothing — what clients see of a redis-server stopped with SIGSTOP (the
// kernel still completes the handshake and buffers what they write).
type stallProxy struct {
	ln      net.Listener
	target  string
	mu      sync.Mutex
	stalled bool
	conns   []net.Conn
}

func newStallProxy(t *testing.T, target string) *stallProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &stallProxy{ln: ln, target: target}
	go p.serve()
	t.Cleanup(func() {
		ln.Close()
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, c := range p.conns {
			c.Close()
		}
	})
	return p
}

func (p *stallProxy) Addr() string { return p.ln.Addr().String() }

// Stall stops every byte in either direction, on open and new connections.
func (p *stallProxy) Stall() { p.mu.Lock(); p.stalled = true; p.mu.Unlock() }

func (p *stallProxy) isStalled() bool { p.mu.Lock(); defer p.mu.Unlock(); return p.stalled }

func (p *stallProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		up, err := net.Dial("tcp", p.target)
		if err != nil {
			c.Close()
			continue
		}
		p.mu.Lock()
		p.conns = append(p.conns, c, up)
		p.mu.Unlock()
		go p.pipe(c, up)
		go p.pipe(up, c)
	}
}

// pipe copies src to dst until the proxy stalls; then it keeps reading src
// (so writers never block) and drops it.
func (p *stallProxy) pipe(dst, src net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 && !p.isStalled() {
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return
		}
	}
}

// TestStalledRedisCostsTheAnswersNothing is the red-team run of issue #28
// item 4: Redis stops answering (SIGSTOP: connections stay open, nothing
// comes back) while /gpu fit questions arrive. Those answers need no
// Redis; before, go-redis ignored the answer path's 250 ms deadlines
// (ContextTimeoutEnabled was off) and the profile read had none, so they
// waited out go-redis's 3 s read timeout and its retry: 35 of 70 answers
// later than 3 s, the slowest 9.9 s. Now every one is posted within 3 s of
// its command, and says 31.01 GB (the 13B LoRA figure the engine gives,
// the same as with Redis up in TestServeStartsWithRedisDown).
func TestStalledRedisCostsTheAnswersNothing(t *testing.T) {
	if testing.Short() {
		t.Skip("70 answers through a stalled Redis (~17 s on a busy 2-core machine); make test and make soak run it")
	}
	mini := miniredis.RunT(t)
	proxy := newStallProxy(t, mini.Addr())
	fs := bottest.NewSlack(t)
	t.Setenv("SLACK_BOT_TOKEN", "xoxb-test")
	t.Setenv("SLACK_APP_TOKEN", "")
	t.Setenv("SLACK_SIGNING_SECRET", testSecret)
	t.Setenv("SLACK_API_URL", fs.APIURL())
	t.Setenv("HTTP_ADDR", "127.0.0.1:0")
	t.Setenv("REDIS_URL", "redis://"+proxy.Addr()+"/0")
	t.Setenv("BOT_DATA_DIR", t.TempDir())
	t.Setenv("CATALOG_PUBLIC", "off")
	out, logs := newOutput(), newOutput()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- run(ctx, []string{"serve"}, strings.NewReader(""), out, logs) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-errc:
		case <-time.After(20 * time.Second):
			t.Error("run did not return")
		}
	})
	base := out.wait(t, regexp.MustCompile(`serving Slack HTTP on (http://\S+)`), errc)

	client := &http.Client{Timeout: 10 * time.Second}
	asked := 0
	ask := func(team string) time.Duration {
		t.Helper()
		asked++
		name := "fit" + strconv.Itoa(asked)
		form := bottest.SlashForm("fit 13b lora", "C1", "U1", fs.ResponseURL(name), "trig-stall-"+strconv.Itoa(asked))
		if team != "" {
			form = []byte(strings.Replace(string(form), "team_id=T1", "team_id="+team, 1))
		}
		start := time.Now()
		resp, err := client.Do(bottest.SignedRequest(t, base+"/slack/commands", testSecret, time.Now(), "application/x-www-form-urlencoded", form))
		if err != nil {
			t.Fatalf("command %d: %v", asked, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("command %d: status %d", asked, resp.StatusCode)
		}
		answer := fs.WaitCalls(t, bottest.ResponseURLMethod, asked)[asked-1].JSON(t)
		took := time.Since(start)
		if text, _ := answer["text"].(string); !strings.Contains(text, "31.01 GB") {
			t.Errorf("command %d: answer %q, want the 13B LoRA fit (31.01 GB)", asked, text)
		}
		return took
	}
	ask("") // Redis answering: warms the catalogue and the pool

	proxy.Stall()
	var slowest time.Duration
	late := 0
	const n = 12
	for i := range n {
		team := "" // T1, whose profile read now hangs; every third a new team, so no cache helps
		if i%3 == 2 {
			team = "T" + strconv.Itoa(100+i)
		}
		took := ask(team)
		slowest = max(slowest, took)
		if took > 3*time.Second {
			late++
			t.Errorf("answer %d with Redis stalled took %v, want within 3 s", i+1, took.Round(time.Millisecond))
		}
	}
	t.Logf("Redis stalled: %d of %d /gpu fit answers later than 3 s; slowest %v", late, n, slowest.Round(time.Millisecond))
}
