package store

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gpubot/gpubot/bot/intent"
)

func TestStoreErrorsCarryCodes(t *testing.T) {
	locked := fmt.Errorf("open: %w", &LockedError{Dir: "/data", PID: 42})
	if got := intent.ErrorCode(locked); got != intent.ECONFLICT {
		t.Errorf("LockedError code %q, want %q", got, intent.ECONFLICT)
	}
	if got, want := intent.ErrorMessage(locked), "data dir /data is in use by another gpubot process (pid 42)"; got != want {
		t.Errorf("LockedError message %q, want %q", got, want)
	}
	wrapped := fmt.Errorf("append: %w", ErrNotWritable)
	if !errors.Is(wrapped, ErrNotWritable) || intent.ErrorCode(wrapped) != intent.EUNAVAILABLE {
		t.Errorf("ErrNotWritable: Is %v, code %q; want true, %q", errors.Is(wrapped, ErrNotWritable), intent.ErrorCode(wrapped), intent.EUNAVAILABLE)
	}
}
