package bottest

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"
)

// Signature is Slack's v0 request signature of body sent at ts.
func Signature(secret string, ts time.Time, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte("v0:" + strconv.FormatInt(ts.Unix(), 10) + ":"))
	mac.Write(body)
	return "v0=" + hex.EncodeToString(mac.Sum(nil))
}

// SignedRequest builds a POST to target signed with secret at ts, as Slack
// sends them. contentType is "application/x-www-form-urlencoded" or
// "application/json".
func SignedRequest(t testing.TB, target, secret string, ts time.Time, contentType string, body []byte) *http.Request {
	t.Helper()
	r, err := http.NewRequest(http.MethodPost, target, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Content-Type", contentType)
	r.Header.Set("X-Slack-Request-Timestamp", strconv.FormatInt(ts.Unix(), 10))
	r.Header.Set("X-Slack-Signature", Signature(secret, ts, body))
	return r
}

// SlashForm is the form Slack posts for "/gpu text".
func SlashForm(text, channel, user, responseURL, triggerID string) []byte {
	return []byte(url.Values{
		"token": {"legacy-verification-token"}, "team_id": {TeamID}, "team_domain": {"test"},
		"channel_id": {channel}, "channel_name": {"gpu"}, "user_id": {user}, "user_name": {"asker"},
		"command": {"/gpu"}, "text": {text}, "api_app_id": {"A1"},
		"response_url": {responseURL}, "trigger_id": {triggerID},
	}.Encode())
}
