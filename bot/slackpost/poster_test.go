package slackpost

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/google/go-cmp/cmp"
	"github.com/redis/go-redis/v9"
	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/bottest"
)

// newClock is a fake time from now: its Wait records the wait and moves
// time on.
func newClock() *bottest.Clock { return bottest.NewClock(time.Now()) }

type fixture struct {
	slack *bottest.Slack
	rdb   *redis.Client
	clock *bottest.Clock
	p     *Poster
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	fs := bottest.NewSlack(t)
	rdb := redis.NewClient(&redis.Options{Addr: miniredis.RunT(t).Addr()})
	t.Cleanup(func() { rdb.Close() })
	c := newClock()
	api := slack.New("xoxb-test", slack.OptionAPIURL(fs.APIURL()))
	return &fixture{slack: fs, rdb: rdb, clock: c, p: New(api, rdb, Options{Now: c.Now, Wait: c.Wait})}
}

func TestPostSendsTheExactForm(t *testing.T) {
	f := newFixture(t)
	blocks := []slack.Block{slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, "13B LoRA: 40 GB", false, false), nil, nil)}
	ts, err := f.p.Post(context.Background(), Message{Channel: "C1", ThreadTS: "1.000100", Text: "13B LoRA: 40 GB", Blocks: blocks, Key: "k1"})
	if err != nil {
		t.Fatal(err)
	}
	calls := f.slack.Calls("chat.postMessage")
	if len(calls) != 1 {
		t.Fatalf("chat.postMessage called %d times, want 1", len(calls))
	}
	want := url.Values{
		"token":        {"xoxb-test"},
		"channel":      {"C1"},
		"thread_ts":    {"1.000100"},
		"text":         {"13B LoRA: 40 GB"},
		"unfurl_links": {"false"},
		"metadata":     {`{"event_type":"gpubot_post","event_payload":{"key":"k1"}}`},
		"blocks":       {`[{"type":"section","text":{"type":"mrkdwn","text":"13B LoRA: 40 GB"}}]`},
	}
	if diff := cmp.Diff(want, calls[0].Form); diff != "" {
		t.Errorf("chat.postMessage form (-want +got):\n%s", diff)
	}
	if got := f.slack.Messages("C1"); len(got) != 1 || got[0].TS != ts {
		t.Errorf("stored %v, want one message with ts %s", got, ts)
	}
}

func TestPostWaitsRetryAfterOn429(t *testing.T) {
	f := newFixture(t)
	f.slack.Script("chat.postMessage", bottest.Reply{Status: 429, RetryAfter: 7})
	if _, err := f.p.Post(context.Background(), Message{Channel: "C1", Text: "hi", Key: "k"}); err != nil {
		t.Fatal(err)
	}
	if n := len(f.slack.Calls("chat.postMessage")); n != 2 {
		t.Errorf("chat.postMessage called %d times, want 2", n)
	}
	if n := len(f.slack.Calls("conversations.history")); n != 0 {
		t.Errorf("a 429 posted nothing, yet the poster checked the history %d times", n)
	}
	// 7 s Retry-After, then the channel pace slot (booked 1 s after the first try) has passed.
	if diff := cmp.Diff([]time.Duration{7 * time.Second}, f.clock.Waits()); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
	if n := len(f.slack.Messages("C1")); n != 1 {
		t.Errorf("%d messages posted, want 1", n)
	}
}

func TestPostRetriesA5xxThatDidNotPost(t *testing.T) {
	f := newFixture(t)
	f.slack.Script("chat.postMessage", bottest.Reply{Status: 503})
	ts, err := f.p.Post(context.Background(), Message{Channel: "C1", ThreadTS: "1.000001", Text: "hi", Key: "k"})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(f.slack.Calls("conversations.replies")); n != 1 {
		t.Errorf("conversations.replies called %d times, want 1 check before the retry", n)
	}
	msgs := f.slack.Messages("C1")
	if len(f.slack.Calls("chat.postMessage")) != 2 || len(msgs) != 1 || msgs[0].TS != ts {
		t.Errorf("posts %d, stored %v; want 2 tries and one message %s", len(f.slack.Calls("chat.postMessage")), msgs, ts)
	}
}

func TestPostDoesNotRepeatA5xxThatPosted(t *testing.T) {
	for _, thread := range []string{"", "1.000001"} {
		t.Run("thread="+thread, func(t *testing.T) {
			f := newFixture(t)
			f.slack.Script("chat.postMessage", bottest.Reply{Status: 500, Posted: true})
			ts, err := f.p.Post(context.Background(), Message{Channel: "C1", ThreadTS: thread, Text: "hi", Key: "k"})
			if err != nil {
				t.Fatal(err)
			}
			msgs := f.slack.Messages("C1")
			if n := len(f.slack.Calls("chat.postMessage")); n != 1 {
				t.Errorf("chat.postMessage called %d times, want 1: the first one had posted", n)
			}
			if len(msgs) != 1 || msgs[0].TS != ts {
				t.Errorf("stored %v, want one message with ts %q", msgs, ts)
			}
		})
	}
}

func TestPostDoesNotRetryWhenTheCheckFails(t *testing.T) {
	f := newFixture(t)
	f.slack.Script("chat.postMessage", bottest.Reply{Status: 502})
	f.slack.Script("conversations.history", bottest.Reply{Status: 500})
	_, err := f.p.Post(context.Background(), Message{Channel: "C1", Text: "hi", Key: "k"})
	if err == nil {
		t.Fatal("Post succeeded, want an error")
	}
	if n := len(f.slack.Calls("chat.postMessage")); n != 1 {
		t.Errorf("chat.postMessage called %d times, want 1 (unsure, so no retry)", n)
	}
	// The key stays taken: the message may be in Slack.
	if _, err := f.p.Post(context.Background(), Message{Channel: "C1", Text: "hi", Key: "k"}); !errors.Is(err, ErrDuplicate) {
		t.Errorf("second Post with the key: err = %v, want ErrDuplicate", err)
	}
}

func TestPostGivesUpAfterMaxAttempts(t *testing.T) {
	f := newFixture(t)
	for range 4 {
		f.slack.Script("chat.postMessage", bottest.Reply{Status: 503})
	}
	if _, err := f.p.Post(context.Background(), Message{Channel: "C1", Text: "hi"}); err == nil {
		t.Fatal("Post succeeded after four 503s")
	}
	if n := len(f.slack.Calls("chat.postMessage")); n != 4 {
		t.Errorf("chat.postMessage called %d times, want 4", n)
	}
	// Backoff 1 s, 2 s, 4 s between the tries (no pace wait: each retry comes later than the slot).
	if diff := cmp.Diff([]time.Duration{time.Second, 2 * time.Second, 4 * time.Second}, f.clock.Waits()); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
}

func TestPostWithAKeyPostsOnce(t *testing.T) {
	f := newFixture(t)
	m := Message{Channel: "C1", Text: "hi", Key: "answer:T1:C1:1.1"}
	ts1, err1 := f.p.Post(context.Background(), m)
	ts2, err2 := f.p.Post(context.Background(), m)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if ts1 != ts2 || len(f.slack.Calls("chat.postMessage")) != 1 {
		t.Errorf("ts %s then %s, %d posts; want the first post's ts and one post", ts1, ts2, len(f.slack.Calls("chat.postMessage")))
	}
}

func TestPostFallsBackToTextWhenBlocksAreRefused(t *testing.T) {
	f := newFixture(t)
	f.slack.Script("chat.postMessage", bottest.Reply{Body: `{"ok":false,"error":"invalid_blocks"}`})
	blocks := []slack.Block{slack.NewDividerBlock()}
	if _, err := f.p.Post(context.Background(), Message{Channel: "C1", Text: "plain", Blocks: blocks}); err != nil {
		t.Fatal(err)
	}
	calls := f.slack.Calls("chat.postMessage")
	if len(calls) != 2 || calls[1].Form.Has("blocks") || calls[1].Form.Get("text") != "plain" {
		t.Errorf("calls %d, second form %v; want a text-only retry", len(calls), calls[len(calls)-1].Form)
	}
}

func TestPaceSpacesPostsPerChannelAcrossReplicas(t *testing.T) {
	f := newFixture(t)
	api := slack.New("xoxb-test", slack.OptionAPIURL(f.slack.APIURL()))
	other := New(api, f.rdb, Options{Now: f.clock.Now, Wait: f.clock.Wait}) // a second replica
	ctx := context.Background()
	for _, step := range []struct {
		p       *Poster
		channel string
	}{{f.p, "C1"}, {other, "C1"}, {f.p, "C2"}, {other, "C1"}} {
		if _, err := step.p.Post(ctx, Message{Channel: step.channel, Text: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	// C1's second post waits its 1 s slot; C2 is free; C1's third waits another second.
	if diff := cmp.Diff([]time.Duration{time.Second, time.Second}, f.clock.Waits()); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
}

func TestPaceFallsBackToThisProcessWithoutRedis(t *testing.T) {
	fs := bottest.NewSlack(t)
	c := newClock()
	p := New(slack.New("xoxb-test", slack.OptionAPIURL(fs.APIURL())), nil, Options{Now: c.Now, Wait: c.Wait})
	for range 3 {
		if _, err := p.Post(context.Background(), Message{Channel: "C1", Text: "x"}); err != nil {
			t.Fatal(err)
		}
	}
	if diff := cmp.Diff([]time.Duration{time.Second, time.Second}, c.Waits()); diff != "" {
		t.Errorf("waits (-want +got):\n%s", diff)
	}
}

func TestEphemeralDoesNotRetryA5xx(t *testing.T) {
	f := newFixture(t)
	f.slack.Script("chat.postEphemeral", bottest.Reply{Status: 500})
	if err := f.p.Ephemeral(context.Background(), Message{Channel: "C1", Text: "only you"}, "U1"); err == nil {
		t.Fatal("Ephemeral succeeded after a 500")
	}
	f.slack.Script("chat.postEphemeral", bottest.Reply{Status: 429, RetryAfter: 2})
	if err := f.p.Ephemeral(context.Background(), Message{Channel: "C1", ThreadTS: "1.1", Text: "only you"}, "U1"); err != nil {
		t.Fatal(err)
	}
	calls := f.slack.Calls("chat.postEphemeral")
	if len(calls) != 3 {
		t.Fatalf("chat.postEphemeral called %d times, want 3", len(calls))
	}
	want := url.Values{"token": {"xoxb-test"}, "channel": {"C1"}, "user": {"U1"}, "thread_ts": {"1.1"}, "text": {"only you"}}
	if diff := cmp.Diff(want, calls[2].Form); diff != "" {
		t.Errorf("chat.postEphemeral form (-want +got):\n%s", diff)
	}
}

func TestRespond(t *testing.T) {
	blocks := []slack.Block{slack.NewDividerBlock()}
	tests := []struct {
		name    string
		replies []bottest.Reply
		r       Response
		calls   int
		waits   []time.Duration
		wantErr bool
		last    string // the last body sent
	}{
		{"in_channel answer", nil, Response{ResponseType: InChannel, Text: "hi", Blocks: blocks}, 1, nil, false,
			`{"response_type":"in_channel","text":"hi","blocks":[{"type":"divider"}]}`},
		{"429 is retried after Retry-After", []bottest.Reply{{Status: 429, RetryAfter: 3}}, Response{ResponseType: Ephemeral, Text: "hi"}, 2,
			[]time.Duration{3 * time.Second}, false, `{"response_type":"ephemeral","text":"hi"}`},
		{"5xx on a new message is not retried", []bottest.Reply{{Status: 500}}, Response{ResponseType: InChannel, Text: "hi"}, 1, nil, true,
			`{"response_type":"in_channel","text":"hi"}`},
		{"5xx on a replacement is retried", []bottest.Reply{{Status: 502}}, Response{ReplaceOriginal: true, Text: "hi"}, 2,
			[]time.Duration{time.Second}, false, `{"replace_original":true,"text":"hi"}`},
		{"expired url is an error", []bottest.Reply{{Status: 404, Body: `{"ok":false,"error":"expired_url"}`}}, Response{Text: "hi"}, 1, nil, true,
			`{"text":"hi"}`},
		{"refused blocks fall back to text", []bottest.Reply{{Status: 400, Body: "invalid_blocks"}}, Response{ResponseType: InChannel, Text: "hi", Blocks: blocks}, 2, nil, false,
			`{"response_type":"in_channel","text":"hi"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t)
			f.slack.Script(bottest.ResponseURLMethod, tt.replies...)
			err := f.p.Respond(context.Background(), f.slack.ResponseURL("r"), tt.r)
			if (err != nil) != tt.wantErr {
				t.Fatalf("Respond err = %v, want error %v", err, tt.wantErr)
			}
			calls := f.slack.Calls(bottest.ResponseURLMethod)
			if len(calls) != tt.calls {
				t.Fatalf("response_url called %d times, want %d", len(calls), tt.calls)
			}
			var got, want any
			json.Unmarshal(calls[len(calls)-1].Body, &got)
			json.Unmarshal([]byte(tt.last), &want)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.waits, f.clock.Waits()); diff != "" {
				t.Errorf("waits (-want +got):\n%s", diff)
			}
			if err != nil && containsURL(err.Error(), f.slack.ResponseURL("r")) {
				t.Errorf("error %q shows the response URL", err)
			}
		})
	}
}

func containsURL(s, u string) bool {
	p, _ := url.Parse(u)
	return strings.Contains(s, u) || strings.Contains(s, p.Path)
}
