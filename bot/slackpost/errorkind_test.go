package slackpost

import (
	"errors"
	"net"
	"testing"
	"time"

	"github.com/slack-go/slack"
)

func TestErrorKind(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{&slack.RateLimitedError{RetryAfter: time.Second}, "ratelimited"},
		{slack.StatusCodeError{Code: 429, Status: "429"}, "ratelimited"},
		{slack.StatusCodeError{Code: 503, Status: "503"}, "server"},
		{slack.SlackErrorResponse{Err: "internal_error"}, "server"},
		{slack.SlackErrorResponse{Err: "channel_not_found"}, "refused"},
		{&net.OpError{Op: "dial", Err: errors.New("refused")}, "network"},
		{&net.OpError{Op: "read", Err: errors.New("reset")}, "network"},
	}
	for _, tt := range tests {
		if got := ErrorKind(tt.err); got != tt.want {
			t.Errorf("ErrorKind(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}
