package slackpost

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/slack-go/slack"

	"github.com/gpubot/gpubot/bot/bottest"
)

func TestRespondRefusesHostsThatAreNotAllowed(t *testing.T) {
	fs := bottest.NewSlack(t)
	p := New(slack.New("xoxb-test", slack.OptionAPIURL(fs.APIURL())), nil, Options{Pace: -1,
		ResponseURLAllowed: func(u *url.URL) bool { return u.Scheme == "https" && u.Host == "hooks.slack.com" }})
	err := p.Respond(context.Background(), fs.ResponseURL("r1"), Response{Text: "hi"})
	if err == nil || !strings.Contains(err.Error(), "not Slack's") {
		t.Errorf("Respond to a non-Slack host: err = %v, want a refusal", err)
	}
	if n := len(fs.Calls(bottest.ResponseURLMethod)); n != 0 {
		t.Errorf("%d posts to a host that is not allowed", n)
	}
}
