package slackpost

import (
	"bytes"
	"context"
	"errors"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/redis/go-redis/v9"
	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/bottest"
)

var png = []byte("\x89PNG\r\n\x1a\nnot really a picture")

func TestUploadSharesTheFileInTheChannel(t *testing.T) {
	f := newFixture(t)
	id, err := f.p.Upload(context.Background(), File{Channel: "C1", Name: "prices.png", Title: "GPU prices, 30 days", Comment: "trend", Data: png, Key: "daily:C1:2026-10-09"})
	if err != nil {
		t.Fatal(err)
	}
	files := f.slack.Files("C1")
	if len(files) != 1 {
		t.Fatalf("files in C1 = %d, want 1", len(files))
	}
	got := files[0]
	if got.ID != id || got.Name != "prices.png" || got.Title != "GPU prices, 30 days" || got.Comment != "trend" || !bytes.Equal(got.Data, png) {
		t.Errorf("shared file = %+v (id %s), want prices.png with its title, comment and bytes", got, id)
	}
	for _, m := range []string{"files.getUploadURLExternal", "upload", "files.completeUploadExternal"} {
		if n := len(f.slack.Calls(m)); n != 1 {
			t.Errorf("%s called %d times, want 1", m, n)
		}
	}
}

func TestUploadWithAKeyUploadsOnce(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	file := File{Channel: "C1", Name: "recap.png", Data: png, Key: "recap:T1:C1:2026-10"}
	first, err := f.p.Upload(ctx, file)
	if err != nil {
		t.Fatal(err)
	}
	second, err := f.p.Upload(ctx, file)
	if err != nil || second != first {
		t.Errorf("second Upload = %q, %v; want the first id %q", second, err, first)
	}
	if n := len(f.slack.Files("")); n != 1 {
		t.Errorf("%d files shared, want 1", n)
	}
}

func TestUploadRetriesA429BeforeSharing(t *testing.T) {
	f := newFixture(t)
	f.slack.Script("files.getUploadURLExternal", bottest.Reply{Status: 429, RetryAfter: 2})
	if _, err := f.p.Upload(context.Background(), File{Channel: "C1", Name: "a.png", Data: png, Key: "k"}); err != nil {
		t.Fatal(err)
	}
	if n := len(f.slack.Files("C1")); n != 1 {
		t.Errorf("%d files shared, want 1 after the retry", n)
	}
}

func TestUploadDoesNotRetryAShareThatMayHaveLanded(t *testing.T) {
	f := newFixture(t)
	f.slack.Script("files.completeUploadExternal", bottest.Reply{Status: 500})
	ctx := context.Background()
	file := File{Channel: "C1", Name: "a.png", Data: png, Key: "k"}
	if _, err := f.p.Upload(ctx, file); err == nil {
		t.Fatal("Upload succeeded through a 500 from files.completeUploadExternal")
	}
	if n := len(f.slack.Calls("files.completeUploadExternal")); n != 1 {
		t.Errorf("files.completeUploadExternal called %d times, want 1 (no retry)", n)
	}
	if _, err := f.p.Upload(ctx, file); !errors.Is(err, ErrDuplicate) {
		t.Errorf("second Upload = %v, want ErrDuplicate: the first may have been shared", err)
	}
}

// pendingRecord leaves the state a replica killed between reserving a key
// and hearing back from Slack leaves behind.
func pendingRecord(t *testing.T, rdb *redis.Client, key string, ttl time.Duration) {
	t.Helper()
	if err := rdb.Set(context.Background(), recordKey(key), pending, ttl).Err(); err != nil {
		t.Fatal(err)
	}
}

func TestSettleFindsAPostThatLanded(t *testing.T) {
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { rdb.Close() })
	fs := bottest.NewSlack(t)
	c := newClock()
	p := New(slack.New("xoxb-test", slack.OptionAPIURL(fs.APIURL())), rdb, Options{Now: c.Now, Wait: c.Wait})
	ctx := context.Background()
	msg := Message{Channel: "C1", Text: "daily", Key: "daily:T1:C1:2026-10-09"}

	// The dead replica's post reached Slack, but its record stayed pending.
	other := New(slack.New("xoxb-test", slack.OptionAPIURL(fs.APIURL())), nil, Options{Now: c.Now, Wait: c.Wait})
	if _, _, err := other.send(ctx, msg, msg.Key); err != nil {
		t.Fatal(err)
	}
	pendingRecord(t, rdb, msg.Key, 24*time.Hour)

	ts, found, err := p.Settle(ctx, msg, c.Now().Add(-time.Hour), time.Minute)
	if err != nil || !found || ts == "" {
		t.Fatalf("Settle = %q, %v, %v; want the landed post", ts, found, err)
	}
	if got, _ := p.Post(ctx, msg); got != ts {
		t.Errorf("Post after Settle = %q, want the recorded %q without posting", got, ts)
	}
	if n := len(fs.Calls("chat.postMessage")); n != 1 {
		t.Errorf("chat.postMessage called %d times, want 1", n)
	}
}

func TestSettleClearsAPendingRecordOnlyOnceItIsOld(t *testing.T) {
	m := miniredis.RunT(t)
	rdb := redis.NewClient(&redis.Options{Addr: m.Addr()})
	t.Cleanup(func() { rdb.Close() })
	fs := bottest.NewSlack(t)
	c := newClock()
	p := New(slack.New("xoxb-test", slack.OptionAPIURL(fs.APIURL())), rdb, Options{Now: c.Now, Wait: c.Wait})
	ctx := context.Background()
	msg := Message{Channel: "C1", Text: "daily", Key: "daily:T1:C1:2026-10-09"}
	pendingRecord(t, rdb, msg.Key, 24*time.Hour)

	if _, err := p.Post(ctx, msg); !errors.Is(err, ErrDuplicate) {
		t.Fatalf("Post over a pending record = %v, want ErrDuplicate", err)
	}
	if _, _, err := p.Settle(ctx, msg, c.Now().Add(-time.Hour), 2*time.Minute); !errors.Is(err, ErrPending) {
		t.Fatalf("Settle of a fresh pending record = %v, want ErrPending", err)
	}
	m.FastForward(3 * time.Minute)
	if _, found, err := p.Settle(ctx, msg, c.Now().Add(-time.Hour), 2*time.Minute); err != nil || found {
		t.Fatalf("Settle of an old pending record = %v, %v; want not found, cleared", found, err)
	}
	if _, err := p.Post(ctx, msg); err != nil {
		t.Fatal(err)
	}
	if n := len(fs.Messages("C1")); n != 1 {
		t.Errorf("%d messages in C1, want 1", n)
	}
}
