package advisor

// InputError is a problem with what the user asked; its text is safe to show.
type InputError struct {
	Field  string // the slot that is wrong, e.g. "params_b"
	Reason string // what is wrong with it, lower case
	Hint   string // the right form, e.g. "/gpu fit 13b lora"
}

func (e *InputError) Error() string { return e.Field + ": " + e.Reason }

func inputErr(field, reason, hint string) *InputError {
	return &InputError{Field: field, Reason: reason, Hint: hint}
}
