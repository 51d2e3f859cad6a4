package advisor

// InputError is a problem with what the user asked; its text is safe to show.
type InputError struct {
	Field  string // the slot that is wrong, e.g. "params_b"
	Reason string // what is wrong with it, lower case
	Hint   string // the right form, e.g. "/gpu fit 13b lora"
	// ReasonZH is the reason in Chinese when the engine can say it (what
	// is missing and the form to give it); "" leaves the bot's wording.
	ReasonZH string
}

func (e *InputError) Error() string { return e.Field + ": " + e.Reason }

func inputErr(field, reason, hint string) *InputError {
	return &InputError{Field: field, Reason: reason, Hint: hint}
}

// inputErrZH is inputErr with the reason in Chinese too.
func inputErrZH(field, reason, zh, hint string) *InputError {
	return &InputError{Field: field, Reason: reason, ReasonZH: zh, Hint: hint}
}
