package transport

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpubot/gpubot/bot/bottest"
)

// FuzzVerify throws headers and bodies at the signature check. Nothing
// unsigned, stale or tampered may reach the handler behind it, nothing may
// panic, and every refusal is a 4xx. Seeds: testdata/fuzz/FuzzVerify.
//
// ts and sig are sent as X-Slack-Request-Timestamp and X-Slack-Signature
// as given. With sign, the body is instead signed properly just now and
// then one byte of it is flipped (at flip, or one byte appended to an empty
// body): the check must catch the change.
func FuzzVerify(f *testing.F) {
	form := bottest.SlashForm("fit 13b lora", "C1", "U1", "https://hooks.slack.com/commands/T1/1/x", "trig")
	now := strconv.FormatInt(time.Now().Unix(), 10)
	f.Add(now, bottest.Signature("another-secret", time.Now(), form), form, false, uint16(0))
	f.Add(now, "v0=", form, false, uint16(0))
	f.Add("", "", []byte{}, true, uint16(0))
	f.Add(now, "", form, true, uint16(17))
	a := New(Config{SigningSecret: secret}, &fakeBot{}, nil, nil, nil)
	f.Fuzz(func(t *testing.T, ts, sig string, body []byte, sign bool, flip uint16) {
		r := httptest.NewRequest(http.MethodPost, "/slack/commands", bytes.NewReader(body))
		if sign {
			at := time.Now()
			ts, sig = strconv.FormatInt(at.Unix(), 10), bottest.Signature(secret, at, body)
			if len(body) == 0 {
				body = []byte{0}
			} else {
				body = bytes.Clone(body)
				body[int(flip)%len(body)] ^= 1
			}
			r = httptest.NewRequest(http.MethodPost, "/slack/commands", bytes.NewReader(body))
		}
		// Header values cannot hold line breaks or NULs on the wire.
		if strings.ContainsAny(ts+sig, "\r\n\x00") {
			return
		}
		r.Header.Set("X-Slack-Request-Timestamp", ts)
		r.Header.Set("X-Slack-Signature", sig)
		passed := false
		w := httptest.NewRecorder()
		a.verified(testBudgets(), maxCommandBody, func(http.ResponseWriter, *http.Request, []byte) { passed = true }).ServeHTTP(w, r)
		if passed {
			t.Fatalf("passed the check: ts %q sig %q body %q (signed then flipped: %v)", ts, sig, body, sign)
		}
		if w.Code < 400 || w.Code > 499 {
			t.Fatalf("refused with %d, want a 4xx", w.Code)
		}
	})
}

// TestVerifyPassesWhatSlackSigned keeps FuzzVerify honest: the same check
// lets an untouched, freshly signed body through.
func TestVerifyPassesWhatSlackSigned(t *testing.T) {
	a := New(Config{SigningSecret: secret}, &fakeBot{}, nil, nil, nil)
	body := bottest.SlashForm("fit 13b lora", "C1", "U1", "https://hooks.slack.com/x", "trig")
	r := bottest.SignedRequest(t, "http://bot/slack/commands", secret, time.Now(), formType, body)
	var got []byte
	a.verified(testBudgets(), maxCommandBody, func(_ http.ResponseWriter, _ *http.Request, b []byte) { got = b }).ServeHTTP(httptest.NewRecorder(), r)
	if !bytes.Equal(got, body) {
		t.Fatalf("a correctly signed request did not pass with its body intact")
	}
}

// FuzzDecodeState: a button's value comes back from Slack as the user's
// client sent it, so it is untrusted. Whatever it holds, decoding never
// panics, and what it accepts asks only the question with the settings
// the buttons may set. Seeds: testdata/fuzz/FuzzDecodeState.
func FuzzDecodeState(f *testing.F) {
	f.Add(`{"q":"fit 13b lora","s":true,"o":{"bits":"8"},"v":"breakdown"}`)
	f.Add(`{"q":"fit 13b","o":{"gpu":"h100"}}`)
	f.Fuzz(func(t *testing.T, v string) {
		s, err := decodeState(v)
		if err != nil {
			return
		}
		if strings.TrimSpace(s.Q) == "" {
			t.Fatalf("decodeState(%q) accepted an empty question", v)
		}
		for k, val := range s.Set {
			ok := false
			for _, allowed := range overrides[k] {
				ok = ok || allowed == val
			}
			if !ok {
				t.Fatalf("decodeState(%q) accepted the setting %s=%s", v, k, val)
			}
		}
		if !slices.Contains(views, s.View) {
			t.Fatalf("decodeState(%q) accepted the view %q", v, s.View)
		}
		if !strings.HasPrefix(s.text(), s.Q) {
			t.Fatalf("state.text() = %q does not start with the question %q", s.text(), s.Q)
		}
	})
}
