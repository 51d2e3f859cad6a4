package present

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gpubot/gpubot/advisor"
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

// The engine's input errors are worded here too, in both languages: the
// reason (the engine's Chinese when it has one, else the value named in
// Chinese), the field in English, the right form.
func TestErrorTextEngine(t *testing.T) {
	size := &advisor.InputError{Field: "params_b", Reason: "model size must be above 0", Hint: "13b, 70B"}
	withZH := &advisor.InputError{Field: "gpu", Reason: "unknown card", ReasonZH: "不认识这张卡", Hint: "4090, H100"}
	tests := []struct {
		name string
		lang Lang
		err  error
		want string
	}{
		{"English", EN, fmt.Errorf("fit: %w", size), "I can't answer that: model size must be above 0 (params_b). Try: 13b, 70B"},
		{"Chinese, the value named", ZH, size, "算不了：“模型大小”这一项读不懂或超出可接受的范围。正确写法示例：13b, 70B"},
		{"Chinese, the engine's own words", ZH, withZH, "算不了：不认识这张卡。正确写法示例：4090, H100"},
	}
	for _, tt := range tests {
		if got := ErrorText(tt.lang, tt.err); got != tt.want {
			t.Errorf("%s: ErrorText = %q, want %q", tt.name, got, tt.want)
		}
	}
	missing := &advisor.InputError{Field: "gpu", Reason: "name the card", Hint: "/gpu monthly 4090 200h"}
	if got, want := AskText(ZH, missing), "还差一点信息：哪张卡？请给出型号，例如 4090、H100。例如：/gpu monthly 4090 200h"; got != want {
		t.Errorf("AskText(zh) = %q, want %q", got, want)
	}
	if got, want := AskText(EN, missing), "One more thing: name the card. For example: /gpu monthly 4090 200h"; got != want {
		t.Errorf("AskText(en) = %q, want %q", got, want)
	}
}
