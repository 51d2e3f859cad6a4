package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/bottest"
)

// fakeUsers answers users.info from a table and counts the calls.
type fakeUsers struct {
	mu    sync.Mutex
	users map[string]*slack.User
	err   error
	calls int
}

func (f *fakeUsers) GetUserInfoContext(_ context.Context, user string, _ ...slack.GetUserInfoOption) (*slack.User, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.err != nil {
		return nil, f.err
	}
	u, ok := f.users[user]
	if !ok {
		return nil, errors.New("user_not_found")
	}
	return u, nil
}

func (f *fakeUsers) Calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls
}

func TestAuthorizerAdmins(t *testing.T) {
	ctx := context.Background()
	users := &fakeUsers{users: map[string]*slack.User{
		"UADMIN":   {ID: "UADMIN", TeamID: "T1", IsAdmin: true},
		"UOWNER":   {ID: "UOWNER", TeamID: "T1", IsOwner: true},
		"UPRIME":   {ID: "UPRIME", TeamID: "T1", IsPrimaryOwner: true, IsOwner: true},
		"UMEMBER":  {ID: "UMEMBER", TeamID: "T1"},
		"UGONE":    {ID: "UGONE", TeamID: "T1", IsAdmin: true, Deleted: true},
		"UFOREIGN": {ID: "UFOREIGN", TeamID: "T2", IsAdmin: true}, // admin elsewhere, here via a shared channel
	}}
	a := NewAuthorizer([]string{" UCONFIG ", ""}, users, 0)
	for user, want := range map[string]bool{
		"UCONFIG": true, "UADMIN": true, "UOWNER": true, "UPRIME": true,
		"UMEMBER": false, "UGONE": false, "UFOREIGN": false, "": false,
	} {
		got, err := a.IsAdmin(ctx, "T1", user)
		if err != nil || got != want {
			t.Errorf("IsAdmin(T1, %q) = %v, %v; want %v", user, got, err, want)
		}
	}
	if got, _ := a.IsAdmin(ctx, "T2", "UFOREIGN"); !got {
		t.Error("IsAdmin(T2, UFOREIGN) = false; an admin of T2 administers T2")
	}
	if err := a.Check(ctx, "T1", "UMEMBER", ImportBill); !errors.Is(err, ErrForbidden) || !strings.Contains(err.Error(), "import a bill") {
		t.Errorf("Check(member, import) = %v, want ErrForbidden naming the action", err)
	}
	for _, act := range []Action{DeleteOthers, ImportBill, Subscribe} {
		if err := a.Check(ctx, "T1", "UADMIN", act); err != nil {
			t.Errorf("Check(admin, %s) = %v", act, err)
		}
	}

	// Config-only: no Slack client, nobody else is an admin.
	only := NewAuthorizer([]string{"UCONFIG"}, nil, 0)
	if ok, err := only.IsAdmin(ctx, "T1", "UADMIN"); ok || err != nil {
		t.Errorf("config-only IsAdmin(UADMIN) = %v, %v; want false", ok, err)
	}
	if ok, _ := only.IsAdmin(ctx, "T1", "UCONFIG"); !ok {
		t.Error("config-only IsAdmin(UCONFIG) = false")
	}
}

func TestAuthorizerCaches(t *testing.T) {
	ctx := context.Background()
	users := &fakeUsers{users: map[string]*slack.User{"UADMIN": {ID: "UADMIN", IsAdmin: true}, "UMEMBER": {ID: "UMEMBER"}}}
	a := NewAuthorizer(nil, users, 5*time.Minute)
	c := bottest.NewClock(time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC))
	a.now = c.Now

	for range 3 {
		a.IsAdmin(ctx, "T1", "UADMIN")
		a.IsAdmin(ctx, "T1", "UMEMBER") // "no" is cached too
	}
	if n := users.Calls(); n != 2 {
		t.Errorf("users.info calls for 3 × 2 checks = %d, want 2", n)
	}
	if _, err := a.IsAdmin(ctx, "T9", "UADMIN"); err != nil || users.Calls() != 3 {
		t.Errorf("another team shares the cache entry: calls = %d, err = %v", users.Calls(), err)
	}
	c.Set(c.Now().Add(4 * time.Minute))
	a.IsAdmin(ctx, "T1", "UADMIN")
	if n := users.Calls(); n != 3 {
		t.Errorf("within the TTL users.info was asked again (%d calls)", n)
	}
	// Demoted in Slack: seen once the cached answer expires.
	users.mu.Lock()
	users.users["UADMIN"] = &slack.User{ID: "UADMIN"}
	users.mu.Unlock()
	c.Set(c.Now().Add(2 * time.Minute))
	if ok, _ := a.IsAdmin(ctx, "T1", "UADMIN"); ok || users.Calls() != 4 {
		t.Errorf("after the TTL IsAdmin = %v with %d calls; want false, 4", ok, users.Calls())
	}

	// Slack failing: refused, not cached.
	users.mu.Lock()
	users.err = errors.New("ratelimited")
	users.mu.Unlock()
	if ok, err := a.IsAdmin(ctx, "T1", "UNEW"); ok || err == nil {
		t.Errorf("IsAdmin with Slack down = %v, %v; want false and the error", ok, err)
	}
	if err := a.Check(ctx, "T1", "UNEW", Subscribe); err == nil || errors.Is(err, ErrForbidden) {
		t.Errorf("Check with Slack down = %v; want the Slack error", err)
	}
	users.mu.Lock()
	users.err = nil
	users.users["UNEW"] = &slack.User{ID: "UNEW", IsOwner: true}
	users.mu.Unlock()
	if ok, err := a.IsAdmin(ctx, "T1", "UNEW"); !ok || err != nil {
		t.Errorf("after Slack recovered IsAdmin = %v, %v; want true (failure was cached)", ok, err)
	}

	// Many handlers at once.
	var wg sync.WaitGroup
	for i := range 50 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			a.IsAdmin(ctx, "T1", []string{"UADMIN", "UMEMBER", "UNEW"}[i%3])
		}()
	}
	wg.Wait()
}

// TestAuthorizerSlackClient aims the real Slack client at a fake users.info.
func TestAuthorizerSlackClient(t *testing.T) {
	var asked []string
	var mu sync.Mutex
	mux := http.NewServeMux()
	mux.HandleFunc("/users.info", func(w http.ResponseWriter, r *http.Request) {
		r.ParseForm()
		user := r.Form.Get("user")
		mu.Lock()
		asked = append(asked, user)
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"ok": true, "user": map[string]any{
			"id": user, "team_id": "T1", "is_admin": user == "UADMIN",
		}})
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	api := slack.New("xoxb-test", slack.OptionAPIURL(srv.URL+"/"))

	a := NewAuthorizer(nil, api, time.Minute)
	ctx := context.Background()
	if ok, err := a.IsAdmin(ctx, "T1", "UADMIN"); !ok || err != nil {
		t.Errorf("IsAdmin(UADMIN) via Slack = %v, %v; want true", ok, err)
	}
	if ok, err := a.IsAdmin(ctx, "T1", "UMEMBER"); ok || err != nil {
		t.Errorf("IsAdmin(UMEMBER) via Slack = %v, %v; want false", ok, err)
	}
	a.IsAdmin(ctx, "T1", "UADMIN")
	mu.Lock()
	defer mu.Unlock()
	if strings.Join(asked, ",") != "UADMIN,UMEMBER" {
		t.Errorf("users.info asked for %v, want UADMIN then UMEMBER once each", asked)
	}
}
