package intent

import "errors"

// Error codes: what kind of failure a user is told about. The code picks
// the sentence around the message (bot/present.ErrorText) and the metrics
// outcome; the message says what was read and the right form.
const (
	EINVALID     = "invalid"     // a value could not be read or is out of range
	ENOTFOUND    = "not_found"   // the thing named does not exist (an entry id)
	EFORBIDDEN   = "forbidden"   // the user may not do this (admins only)
	ECONFLICT    = "conflict"    // someone else holds it (the data directory)
	EUNAVAILABLE = "unavailable" // an optional service is off or paused (the LLM)
	ENOTSAVED    = "not_saved"   // a write did not reach storage
	EINTERNAL    = "internal"    // anything else: logged, never shown
)

// Error is the one error a user may see, after benbjohnson/wtf's: a code
// and a message that is safe to show (no addresses, tokens or driver
// text). The message is English; MessageZH is the same in Chinese, and
// bot/present.ErrorText picks one, or writes a sentence from the code when
// the error carries no message in the asker's language. Field and Hint
// name the value that was wrong and its right form. Err is the cause, for
// the log only.
type Error struct {
	Code      string
	Message   string
	MessageZH string
	Field     string
	Hint      string
	Err       error
}

// Error returns the message; an error with none returns its code, and the
// cause's text follows for the log.
func (e *Error) Error() string {
	s := e.Message
	if s == "" {
		s = e.Code
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrorCode returns the code of the first *Error in err's chain: "" for
// nil, EINTERNAL for an error that is none (it must not be shown).
func ErrorCode(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e) && e.Code != "":
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the safe English message of the first *Error in
// err's chain: "" for nil, a fixed sentence for an error that is none.
func ErrorMessage(err error) string {
	var e *Error
	switch {
	case err == nil:
		return ""
	case errors.As(err, &e) && e.Message != "":
		return e.Message
	}
	return "internal error"
}
