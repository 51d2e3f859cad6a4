package main

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// questions is the request mix: every intent the engine answers, in both
// languages, as slash commands and as sentences after /gpu.
var questions = []struct{ intent, text string }{
	{"fit", "fit 13b lora"},
	{"fit", "fit 70b qlora ctx=8k"},
	{"fit", "13B 模型 LoRA 微调要多大显存"},
	{"cost", "cost 7b lora 50k samples 2 epochs on 4090"},
	{"cost", "how much to serve a 70B model for 100M tokens?"},
	{"monthly", "monthly 4090 200h price=1.8 monthly=900"},
	{"monthly", "4090 包月划算吗，每月 300 小时"},
	{"buy", "buy h100"},
	{"buy", "should we buy H100s or keep renting at $2.2/h? we use them ~60% of the time"},
	{"price", "price h100"},
	{"price", "4090 现在多少钱"},
	{"compare", "compare h100 h800 h20"},
	{"compare", "H100 和 H800 选哪个"},
	{"recommend", "recommend 70b inference"},
	{"recommend", "预算一万块，想微调 7B，推荐什么卡"},
	{"help", "help"},
	{"knowledge", "租卡合同里要写清楚哪些条款"},
	{"knowledge", "what hidden costs should I watch for when renting GPUs?"},
}

// outcome of one request's acknowledgement.
type outcome uint8

const (
	pending   outcome = iota
	acked             // 200 with the "working on it" note (or the baseline's 200)
	swamped           // 200 saying every worker is busy: the question is not answered
	refused           // any other status
	failed            // no response (connection, timeout)
	badAck            // 200 with an unexpected body
	nOutcomes         // count
)

// client sends the load: keep-alive connections, as many as requests in flight.
func newClient() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns = 4096
	tr.MaxIdleConnsPerHost = 4096
	tr.DisableCompression = true
	return &http.Client{Transport: tr, Timeout: 10 * time.Second}
}

// result is one measured run.
type result struct {
	name     string // the target's
	answers  bool   // the target's: answers go to the sink
	mode     string // "open 1000/s × 10s" or "closed 32 workers × 5s"
	open     bool
	window   time.Duration // from the first request to the last acknowledgement
	sent     int
	outcomes [nOutcomes]int
	ackLat   []time.Duration
	ansLat   []time.Duration
	answered int // answers that arrived (real handler)
	inWindow int // of them, during the window (closed loop)
	unanswer int // acknowledged yet never answered
	dups     int
	bad      int
	behind   int // open loop: requests sent over 1 ms after they were due
	cpu      time.Duration
	peakRSS  int64 // bytes; -1 unknown
	rssReset bool  // peakRSS is this run's own peak, not the process's
	logs     []string
	slackErr int64
	outages  int    // soak: redis-server kills during the run
	conns    int64  // connections the bot opened to the sink
	flood    string // flood run: what the unsigned requests got back
}

func (r *result) errors() int {
	return r.outcomes[swamped] + r.outcomes[refused] + r.outcomes[failed] + r.outcomes[badAck] + r.unanswer + r.dups + r.bad
}

// throughput is acknowledged requests a second.
func (r *result) throughput() float64 {
	if r.window <= 0 {
		return 0
	}
	return float64(r.outcomes[acked]) / r.window.Seconds()
}

// driver sends signed slash commands to one target.
type driver struct {
	client *http.Client
	sink   *sink
	base   time.Time
	run    string // distinguishes trigger ids across runs and processes
}

func (d *driver) since() int64 { return int64(time.Since(d.base)) }

// send posts request i of a run as Slack would and reports what came back
// and when (since base).
func (d *driver) send(ctx context.Context, t *target, arr *arrivals, i int) (outcome, int64) {
	q := questions[i%len(questions)]
	body := []byte(url.Values{
		"token": {"legacy"}, "team_id": {"TLOADGEN"}, "team_domain": {"loadgen"},
		"channel_id": {"C" + strconv.Itoa(i%50)}, "channel_name": {"gpu"}, "user_id": {"U" + strconv.Itoa(i%200)}, "user_name": {"asker"},
		"command": {"/gpu"}, "text": {q.text}, "api_app_id": {"A1"},
		"response_url": {d.sink.responseURL(arr, i)}, "trigger_id": {d.run + "." + arr.id + "." + strconv.Itoa(i)},
	}.Encode())
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, t.commands, bytes.NewReader(body))
	if err != nil {
		return failed, d.since()
	}
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte("v0:" + ts + ":"))
	mac.Write(body)
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-Slack-Request-Timestamp", ts)
	req.Header.Set("X-Slack-Signature", "v0="+hex.EncodeToString(mac.Sum(nil)))
	resp, err := d.client.Do(req)
	if err != nil {
		return failed, d.since()
	}
	ack, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	at := d.since()
	switch {
	case resp.StatusCode != http.StatusOK:
		return refused, at
	case !t.real:
		return acked, at
	case bytes.Contains(ack, []byte("swamped")) || bytes.Contains(ack, []byte("太忙")):
		return swamped, at
	case bytes.Contains(ack, []byte("Working on")) || bytes.Contains(ack, []byte("正在计算")):
		return acked, at
	}
	return badAck, at
}

// record holds a run's per-request times.
type record struct {
	due, done []int64
	out       []outcome
}

func newRecord(n int) *record {
	return &record{due: make([]int64, n), done: make([]int64, n), out: make([]outcome, n)}
}

// openLoop sends rate requests a second for dur, each at its due time
// whatever the earlier ones are doing; latency counts from the due time,
// so a server that falls behind shows it.
func (d *driver) openLoop(ctx context.Context, t *target, rate int, dur time.Duration, during func(ctx context.Context) int) *result {
	n := int(float64(rate) * dur.Seconds())
	arr := d.sink.begin(nextRun(), n)
	rec := newRecord(n)
	res := &result{name: t.name, answers: t.answers, open: true, mode: fmt.Sprintf("open, %d/s × %s", rate, dur)}
	interval := time.Second / time.Duration(rate)
	meter := startMeter()
	conns := d.sink.conns.Load()
	var outages atomic.Int64
	sctx, stopDuring := context.WithCancel(ctx)
	var dwg sync.WaitGroup
	if during != nil {
		dwg.Go(func() { outages.Store(int64(during(sctx))) })
	}
	var wg sync.WaitGroup
	start := d.since()
	for i := 0; i < n && ctx.Err() == nil; i++ {
		due := start + int64(i)*int64(interval)
		if wait := due - d.since(); wait > 0 {
			time.Sleep(time.Duration(wait))
		}
		if d.since()-due > int64(time.Millisecond) {
			res.behind++
		}
		rec.due[i] = due
		wg.Go(func() {
			rec.out[i], rec.done[i] = d.send(ctx, t, arr, i)
		})
	}
	wg.Wait()
	stopDuring()
	dwg.Wait()
	res.outages = int(outages.Load())
	d.finish(res, rec, arr, n, start, meter, conns)
	return res
}

// closedLoop runs workers clients, each sending its next request when the
// last is acknowledged, for dur: the most the target acknowledges.
func (d *driver) closedLoop(ctx context.Context, t *target, workers int, dur time.Duration) *result {
	// Room for 60,000 requests a second; a worker stops when it runs out.
	most := max(10_000, int(dur.Seconds()*60_000))
	arr := d.sink.begin(nextRun(), most)
	rec := newRecord(most)
	res := &result{name: t.name, answers: t.answers, mode: fmt.Sprintf("closed, %d workers × %s", workers, dur)}
	meter := startMeter()
	conns := d.sink.conns.Load()
	var next atomic.Int64
	start := d.since()
	end := start + int64(dur)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for ctx.Err() == nil && d.since() < end {
				i := int(next.Add(1) - 1)
				if i >= most {
					return
				}
				rec.due[i] = d.since()
				rec.out[i], rec.done[i] = d.send(ctx, t, arr, i)
			}
		})
	}
	wg.Wait()
	n := min(int(next.Load()), most)
	d.finish(res, rec, arr, n, start, meter, conns)
	for i := range n {
		if at := arr.at[i].Load(); at != 0 && at-1 <= end {
			res.inWindow++
		}
	}
	return res
}

// finish waits for the answers and fills in the result.
func (d *driver) finish(res *result, rec *record, arr *arrivals, n int, start int64, meter meter, conns int64) {
	last := start
	for i := range n {
		res.outcomes[rec.out[i]]++
		last = max(last, rec.done[i])
		if rec.out[i] == acked {
			res.ackLat = append(res.ackLat, time.Duration(rec.done[i]-rec.due[i]))
		}
	}
	res.sent, res.window = n, time.Duration(last-start)
	if res.answers {
		arr.wait(int64(res.outcomes[acked]), drainTimeout)
		for i := range n {
			at := arr.at[i].Load()
			switch {
			case at != 0:
				res.answered++
				res.ansLat = append(res.ansLat, time.Duration(at-1-rec.due[i]))
			case rec.out[i] == acked:
				res.unanswer++
			}
		}
		res.dups, res.bad = int(arr.dups.Load()), int(arr.bad.Load())
	}
	res.cpu, res.peakRSS, res.rssReset = meter.stop()
	res.conns = d.sink.conns.Load() - conns
}

// drainTimeout is how long finish waits without any answer arriving.
var drainTimeout = 10 * time.Second

var runSeq atomic.Int64

func nextRun() string { return strconv.FormatInt(runSeq.Add(1), 10) }

// settle lets the previous run's garbage go, and hands the memory back to
// the OS, before the next run is measured.
func settle() {
	debug.FreeOSMemory()
}
