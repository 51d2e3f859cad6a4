package parse

// MaxMessage is how many runes of a message the parser reads; the rest is
// cut. A transport that appends settings to a question (a button's
// currency=cny) checks it: a setting past the cut would not be read.
const MaxMessage = maxMessage
