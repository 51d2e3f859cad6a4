package amount

import (
	"errors"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/bot/intent"
)

// An amount that cannot be read is the user-facing invalid error, in both
// languages, with the right form.
func TestErrorIsAnInvalidIntentError(t *testing.T) {
	_, err := Number("2.5e3")
	var e *intent.Error
	if !errors.As(err, &e) {
		t.Fatalf("Number(2.5e3) err %v: not an *intent.Error", err)
	}
	var ae *Error
	errors.As(err, &ae)
	if e.Code != intent.EINVALID || e.Hint != ae.Hint || !strings.Contains(e.Message, ae.Reason) || !strings.Contains(e.MessageZH, ae.ReasonZH) || ae.ReasonZH == "" {
		t.Errorf("Number(2.5e3) = %+v, want invalid with %q / %q and hint %q", e, ae.Reason, ae.ReasonZH, ae.Hint)
	}
}
