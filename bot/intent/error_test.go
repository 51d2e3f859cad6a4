package intent

import (
	"errors"
	"fmt"
	"testing"
)

func TestErrorCodeAndMessage(t *testing.T) {
	cause := errors.New("dial tcp 10.0.0.7:6379: connection refused")
	safe := &Error{Code: ENOTFOUND, Message: "no entry 7", Err: cause}
	tests := []struct {
		name      string
		err       error
		code, msg string
	}{
		{"nil is no error", nil, "", ""},
		{"a plain error is internal and says nothing of itself", cause, EINTERNAL, "internal error"},
		{"an Error gives its code and message", safe, ENOTFOUND, "no entry 7"},
		{"wrapped, it is still found", fmt.Errorf("delete: %w", safe), ENOTFOUND, "no entry 7"},
		{"an Error with no code is internal", &Error{Message: "x"}, EINTERNAL, "x"},
	}
	for _, tt := range tests {
		if got := ErrorCode(tt.err); got != tt.code {
			t.Errorf("%s: ErrorCode = %q, want %q", tt.name, got, tt.code)
		}
		if got := ErrorMessage(tt.err); got != tt.msg {
			t.Errorf("%s: ErrorMessage = %q, want %q", tt.name, got, tt.msg)
		}
	}
	// The log keeps the cause; the user's message never has it.
	if got, want := safe.Error(), "no entry 7: dial tcp 10.0.0.7:6379: connection refused"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if !errors.Is(safe, cause) {
		t.Error("errors.Is(safe, cause) = false: Unwrap lost the cause")
	}
}
