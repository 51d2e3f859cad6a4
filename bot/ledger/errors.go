package ledger

import (
	"errors"
	"fmt"
)

// ErrNotSaved marks a write that did not reach durable storage: Redis did not
// answer, the transaction failed, or the embedded snapshot could not be
// written (the in-memory change is rolled back then). The caller tells the
// user plainly that the entry was NOT saved. Errors wrap it together with the
// cause: errors.Is(err, ErrNotSaved). The cause (addresses, Redis replies) is
// for the log; the user gets a fixed sentence.
var ErrNotSaved = errors.New("not saved")

// ErrNotFound is returned for an id that is not in the team's ledger, and by
// Undo when the user has nothing left to undo.
var ErrNotFound = errors.New("no such entry")

// ErrForbidden is returned when the user may not do what was asked (delete
// someone else's entry without being an admin). Its text is safe to show.
var ErrForbidden = errors.New("only workspace admins can do that")

// InputError is a problem with what the user gave; its text is safe to show.
type InputError struct {
	Field  string
	Reason string
}

func (e *InputError) Error() string { return e.Field + ": " + e.Reason }

func inputErr(field, format string, args ...any) *InputError {
	return &InputError{Field: field, Reason: fmt.Sprintf(format, args...)}
}

func notSaved(err error) error { return fmt.Errorf("%w: %w", ErrNotSaved, err) }

// UnconfirmedError is a write that was sent but not acknowledged (a timeout,
// a dropped connection): it may or may not have been applied. Tell the user
// "checking…", call Ledger.Settle with Key, and report what it finds; never
// say "not saved" before that.
type UnconfirmedError struct {
	Team, Key string
	Remove    bool // an Undo or Delete: settle with Ledger.SettleRemove
	Err       error
}

func (e *UnconfirmedError) Error() string { return "write not confirmed: " + e.Err.Error() }

func (e *UnconfirmedError) Unwrap() error { return e.Err }
