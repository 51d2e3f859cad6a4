package present

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gpubot/gpubot/bot/intent"
)

func TestErrorText(t *testing.T) {
	cause := errors.New("READONLY You can't write against a read only replica. 10.0.0.7:6379")
	invalid := &intent.Error{Code: intent.EINVALID, Message: `currency, read "eur": currency=CNY or currency=USD`,
		MessageZH: `currency，读到 "eur"：currency=CNY or currency=USD`, Hint: "/gpu settings currency=CNY"}
	tests := []struct {
		name string
		lang Lang
		err  error
		want string
	}{
		{"invalid, English", EN, invalid,
			`I couldn't read that: currency, read "eur": currency=CNY or currency=USD. Try: /gpu settings currency=CNY`},
		{"invalid, Chinese", ZH, fmt.Errorf("settings: %w", invalid),
			`没看懂：currency，读到 "eur"：currency=CNY or currency=USD。正确写法示例：/gpu settings currency=CNY`},
		{"an English-only message is not shown to a Chinese asker", ZH,
			&intent.Error{Code: intent.ENOTFOUND, Message: "no such entry"}, "找不到要找的内容。"},
		{"a message's own stop is not doubled", EN,
			&intent.Error{Code: intent.EFORBIDDEN, Message: "only workspace admins can do that."}, "Not allowed: only workspace admins can do that."},
		{"not saved, with no message", EN, &intent.Error{Code: intent.ENOTSAVED, Err: cause}, "That was NOT saved. Please try again."},
		{"a driver error says nothing of itself", EN, cause, "Something broke on our side; it's logged. Please try again."},
		{"nor in Chinese", ZH, fmt.Errorf("write: %w", cause), "我这边出错了，已记录日志。请稍后再试。"},
		{"internal with a message is still internal", EN, &intent.Error{Code: intent.EINTERNAL, Message: "the rephrase changed a figure"},
			"Something broke on our side; it's logged. Please try again."},
	}
	for _, tt := range tests {
		if got := ErrorText(tt.lang, tt.err); got != tt.want {
			t.Errorf("%s: ErrorText = %q, want %q", tt.name, got, tt.want)
		}
	}
}
