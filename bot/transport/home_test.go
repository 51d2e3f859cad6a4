package transport

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/bottest"
	budgets "github.com/gpubot/gpubot/bot/budget"
	"github.com/gpubot/gpubot/bot/ledger"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/profile"
	"github.com/gpubot/gpubot/bot/store"
	"github.com/gpubot/gpubot/bot/watch"
	"github.com/gpubot/gpubot/knowledge"
)

// homeHarness is the real bot with the ledger, budgets, team settings and
// price watches behind the App Home tab, over the strict fake Slack.
func homeHarness(t *testing.T) (*harness, *ledger.Ledger, *watch.Store) {
	t.Helper()
	st, err := store.OpenEmbedded(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	kb := knowledge.MustShipped()
	now := func() time.Time { return time.Date(2026, 10, 20, 12, 0, 0, 0, time.UTC) }
	l := ledger.New(st, ledger.Options{KB: kb, Now: now})
	auth := ledger.NewAuthorizer([]string{"U1"}, nil, 0) // U1 may set budgets and settings
	profs := profile.New(st.Client(), st.Persist)
	ws := watch.NewStore(st.Client(), "")
	b := bot.New(bot.Config{FX: 7.2}, kb, nil)
	b.Route(parse.Spend, bot.NewSpend(l, auth, 7.2, now))
	b.Route(parse.Settings, profile.NewHandler(profs, kb, auth, now))
	b.Route(parse.Budget, budgets.NewHandler(budgets.NewAlerts(budgets.NewStore(st.Client(), st.Persist), l, profs, 7.2), auth, now))
	b.Route(parse.Watch, &watch.Handler{Store: ws, KB: kb, FX: 7.2, Now: now, Persist: st.Persist,
		Prices: func(context.Context) ([]knowledge.Offer, error) { return nil, nil }})
	h := newHarness(t, b)
	h.app.cfg.Home = &HomeTab{Views: h.api, Watches: func(ctx context.Context, team, user string) ([]HomeWatch, error) {
		mine, err := ws.Of(ctx, team, user)
		var out []HomeWatch
		for _, w := range mine {
			out = append(out, HomeWatch{ID: w.ID, Text: watch.What(w, kb)})
		}
		return out, err
	}}
	return h, l, ws
}

// lastView is the view of the last views.publish or views.open call, as sent.
func lastView(t *testing.T, h *harness, method string, n int) []byte {
	t.Helper()
	calls := h.slack.WaitCalls(t, method, n)
	var req struct {
		View json.RawMessage `json:"view"`
	}
	if err := json.Unmarshal(calls[n-1].Body, &req); err != nil {
		t.Fatal(err)
	}
	return req.View
}

// submit sends a view_submission over HTTP and returns Slack's answer to
// it (the response body), checked against the submitted view the way Slack
// reads it.
func submit(t *testing.T, h *harness, viewID string, view []byte, values map[string]string) map[string]any {
	t.Helper()
	res := h.send(t, "/slack/interactive", formType, bottest.InteractiveForm(bottest.ViewSubmission("U1", viewID, view, values)))
	if res.status != 200 {
		t.Fatalf("view_submission answered %d %s", res.status, res.body)
	}
	if e := bottest.ViewResponseError(view, []byte(res.body)); e != "" {
		t.Fatalf("Slack would not take the answer to the submission: %s\n%s", e, res.body)
	}
	if res.body == "" {
		return nil
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(res.body), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// The App Home tab shows the team's settings, budgets and the user's
// watches with buttons; a button opens a modal (views.open, checked by the
// strict fake as Slack checks it); a spend entry submitted from the modal
// is booked by the same path as a typed one — same card, hours, amount and
// project as "/gpu spend add 4090 40h ¥75 project=aigc" — once, however
// often the submission is delivered; bad values keep the modal open with
// the error on the field (response_action errors); a budget and a watch
// are set the same way, and a watch's Stop button stops it after a
// confirming modal.
func TestAppHomeModals(t *testing.T) {
	h, l, ws := homeHarness(t)
	ctx := context.Background()
	h.event(t, "Ev1", map[string]any{"type": "app_home_opened", "user": "U1", "channel": "D1", "tab": "home", "event_ts": "1.1"})
	h.settle()
	home := string(lastView(t, h, "views.publish", 1))
	for _, want := range []string{"gpubot.home.spend", "gpubot.home.budget", "gpubot.home.settings", "gpubot.home.watch", "Team settings", "currency", "Budgets", "Your price watches", "None yet"} {
		if !strings.Contains(home, want) {
			t.Errorf("home view lacks %q", want)
		}
	}
	if strings.Contains(h.logs.String(), "not published") {
		t.Fatalf("the strict fake refused the home view:\n%s", h.logs.String())
	}

	open := func(action, trigger string, n int) []byte {
		t.Helper()
		h.send(t, "/slack/interactive", formType, bottest.InteractiveForm(bottest.HomeAction("U1", action, "", trigger)))
		h.settle()
		if c := h.slack.Calls("views.open"); len(c) != n || !strings.Contains(string(c[n-1].Body), `"trigger_id":"`+trigger+`"`) {
			t.Fatalf("%s: %d views.open calls, want %d with the click's trigger_id\n%s", action, len(c), n, h.logs.String())
		}
		if strings.Contains(h.logs.String(), "modal not opened") {
			t.Fatalf("the strict fake refused the modal:\n%s", h.logs.String())
		}
		return lastView(t, h, "views.open", n)
	}

	// Spend: bad values first.
	spend := open("gpubot.home.spend", "trig-1", 1)
	r := submit(t, h, "VS1", spend, map[string]string{"card": "4090", "hours": "abc", "amount": "¥18,50"})
	errs, _ := r["errors"].(map[string]any)
	if r["response_action"] != "errors" || errs["amount"] == nil {
		t.Fatalf("bad amount: %v, want errors on amount", r)
	}
	if s, _ := errs["amount"].(string); !strings.Contains(s, "18,50") {
		t.Errorf("amount error %q does not say what was read", s)
	}
	r = submit(t, h, "VS1", spend, map[string]string{"card": "4090", "hours": "", "amount": "¥75"})
	if errs, _ := r["errors"].(map[string]any); errs["hours"] == nil {
		t.Errorf("empty hours: %v, want an error on hours", r)
	}
	h.settle()
	if all, _ := l.List(ctx, bottest.TeamID, ledger.Month{}, ""); len(all) != 0 {
		t.Fatalf("%d entries after refused submissions, want 0", len(all))
	}
	// Then a good one, delivered twice.
	good := map[string]string{"card": "4090", "hours": "40", "amount": "¥75", "project": "aigc"}
	for range 2 {
		if r := submit(t, h, "VS1", spend, good); r != nil {
			t.Fatalf("good entry: %v, want the modal closed", r)
		}
		h.settle()
	}
	all, err := l.List(ctx, bottest.TeamID, ledger.Month{}, "")
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 1 {
		t.Fatalf("%d entries from one modal entry delivered twice, want 1", len(all))
	}
	m := all[0]
	// Typed by another member of the team, the same entry is the same
	// entry: the ledger asks whether it is a repeat of the modal's, and
	// with "anyway" books it with the same card, hours, amount and project.
	h.send(t, "/slack/commands", formType, bottest.SlashForm("spend add 4090 40h ¥75 project=aigc", "C1", "U2", h.slack.ResponseURL("typed"), "trig-typed"))
	h.settle()
	if got := h.slack.Calls(bottest.ResponseURLMethod); !strings.Contains(string(got[len(got)-1].Body), "This looks like #"+m.ID) {
		t.Errorf("typed copy of the modal's entry answered %s, want it taken for a repeat of #%s", got[len(got)-1].Body, m.ID)
	}
	h.send(t, "/slack/commands", formType, bottest.SlashForm("spend add 4090 40h ¥75 project=aigc anyway", "C1", "U2", h.slack.ResponseURL("typed2"), "trig-typed2"))
	h.settle()
	all, _ = l.List(ctx, bottest.TeamID, ledger.Month{}, "")
	if len(all) != 2 {
		t.Fatalf("%d entries, want the modal's and the typed one", len(all))
	}
	typed := all[0]
	if typed.ID == m.ID {
		typed = all[1]
	}
	if m.User != "U1" || m.GPU != "rtx4090" || m.Hours != 40 || m.Cards != 1 || m.Amount.String() != typed.Amount.String() || m.Project != "aigc" ||
		m.GPU != typed.GPU || m.Hours != typed.Hours || m.Project != typed.Project {
		t.Errorf("modal entry %+v, typed %+v: want U1's RTX 4090 ×1, 40 h, ¥75, project aigc, as typed", m, typed)
	}
	dm := h.slack.Messages("U1")
	if len(dm) != 1 || !strings.Contains(dm[0].Text, "Saved #") {
		t.Errorf("DM after the modal: %+v, want one confirmation", dm)
	}
	if n := len(h.slack.Calls("views.publish")); n < 2 {
		t.Errorf("home tab not published again after the entry (%d publishes)", n)
	}

	// Budget, over Socket Mode: missing amount, then a good one.
	budget := open("gpubot.home.budget", "trig-2", 2)
	sock := runSocket(t, h)
	sock.Send(t, "interactive", "env-1", bottest.ViewSubmission("U1", "VB1", budget, map[string]string{"amount": "", "project": "pretrain"}))
	ack := sock.WaitAck(t, "env-1")
	if e := bottest.ViewResponseError(budget, ack.Payload); e != "" || !strings.Contains(string(ack.Payload), `"amount"`) {
		t.Errorf("missing budget amount: ack %s (%s), want errors on amount", ack.Payload, e)
	}
	sock.Send(t, "interactive", "env-2", bottest.ViewSubmission("U1", "VB1", budget, map[string]string{"amount": "¥100k", "period": "quarter", "project": "pretrain"}))
	if ack := sock.WaitAck(t, "env-2"); len(ack.Payload) != 0 && string(ack.Payload) != "null" {
		t.Errorf("good budget: ack %s, want none (the modal closes)", ack.Payload)
	}
	h.settle()
	if dm := h.slack.Messages("U1"); len(dm) != 2 || !strings.Contains(dm[1].Text, "pretrain") || !strings.Contains(dm[1].Text, "100,000") {
		t.Errorf("budget answer %+v, want pretrain ¥100,000 a quarter", dm[len(dm)-1])
	}

	// A member who is not an admin gets the budget handler's refusal, as
	// when typed, and nothing is set.
	member := bottest.ViewSubmission("U2", "VB2", budget, map[string]string{"amount": "¥1", "project": "sneaky"})
	h.send(t, "/slack/interactive", formType, bottest.InteractiveForm(member))
	h.settle()
	if dm := h.slack.Messages("U2"); len(dm) != 1 || !strings.Contains(dm[0].Text, "only workspace admins") {
		t.Errorf("a member's budget from the Home tab: %+v, want the admins-only refusal", dm)
	}

	// A watch, then its Stop button.
	wv := open("gpubot.home.watch", "trig-3", 3)
	if r := submit(t, h, "VW1", wv, map[string]string{"what": "watch list"}); r["response_action"] != "errors" {
		t.Errorf("a watch form asking to list: %v, want an error", r)
	}
	if r := submit(t, h, "VW1", wv, map[string]string{"what": "h100 < $2/h"}); r != nil {
		t.Fatalf("good watch: %v", r)
	}
	h.settle()
	mine, _ := ws.Of(ctx, bottest.TeamID, "U1")
	if len(mine) != 1 || mine[0].GPU != "h100-sxm" || mine[0].Threshold != 2 {
		t.Fatalf("watches %+v, want one on h100 under $2", mine)
	}
	home = string(lastView(t, h, "views.publish", len(h.slack.Calls("views.publish"))))
	stopID := "gpubot.home.unwatch." + mine[0].ID
	if !strings.Contains(home, stopID) || !strings.Contains(home, "pretrain") || strings.Contains(home, "sneaky") {
		t.Errorf("home after the watch and budget lacks the Stop button %s or the budget", stopID)
	}
	stop := open(stopID, "trig-4", 4)
	if r := submit(t, h, "VU1", stop, nil); r != nil {
		t.Fatalf("stop: %v", r)
	}
	h.settle()
	if mine, _ := ws.Of(ctx, bottest.TeamID, "U1"); len(mine) != 0 {
		t.Errorf("watches after Stop: %+v, want none", mine)
	}
}

// Every form's modal passes the strict fake's view rules in both languages
// (titles and buttons within 24 characters, unique block ids, labelled
// inputs), and the fake refuses what Slack refuses.
func TestModalsAreValidViews(t *testing.T) {
	for name, f := range forms {
		for _, lang := range []string{"en", "zh"} {
			raw, _ := json.Marshal(f.modalView(lang, "7"))
			if e := bottest.ViewError(raw, "modal"); e != "" {
				t.Errorf("%s (%s): %s", name, lang, e)
			}
		}
	}
	bad := map[string]string{
		"title of 25 characters": `{"type":"modal","title":{"type":"plain_text","text":"Log spend for the team abc"},"blocks":[]}`,
		"no title":               `{"type":"modal","blocks":[]}`,
		"inputs without submit":  `{"type":"modal","title":{"type":"plain_text","text":"x"},"blocks":[{"type":"input","block_id":"a","label":{"type":"plain_text","text":"A"},"element":{"type":"plain_text_input","action_id":"a"}}]}`,
		"input without label":    `{"type":"modal","title":{"type":"plain_text","text":"x"},"submit":{"type":"plain_text","text":"ok"},"blocks":[{"type":"input","block_id":"a","element":{"type":"plain_text_input","action_id":"a"}}]}`,
		"same block_id twice":    `{"type":"modal","title":{"type":"plain_text","text":"x"},"blocks":[{"type":"section","block_id":"a","text":{"type":"mrkdwn","text":"1"}},{"type":"section","block_id":"a","text":{"type":"mrkdwn","text":"2"}}]}`,
		"mrkdwn title":           `{"type":"modal","title":{"type":"mrkdwn","text":"x"},"blocks":[]}`,
	}
	for why, v := range bad {
		if bottest.ViewError([]byte(v), "modal") == "" {
			t.Errorf("the fake took a modal with %s", why)
		}
	}
	view := []byte(`{"type":"modal","blocks":[{"type":"input","block_id":"hours"},{"type":"section","block_id":"note"}]}`)
	for resp, ok := range map[string]bool{
		`{"response_action":"errors","errors":{"hours":"Required"}}`: true,
		`{"response_action":"errors","errors":{"note":"Required"}}`:  false, // not an input
		`{"response_action":"errors","errors":{"card":"Required"}}`:  false, // not in the view
		`{"response_action":"errors","errors":{}}`:                   false,
		``: true,
	} {
		if got := bottest.ViewResponseError(view, []byte(resp)) == ""; got != ok {
			t.Errorf("ViewResponseError(%s) accepted = %v, want %v", resp, got, ok)
		}
	}
}
