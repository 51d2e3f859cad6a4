package bot

import (
	"errors"

	"github.com/gpubot/gpubot/bot/intent"
	"github.com/gpubot/gpubot/bot/ledger"
)

// userError reads the ledger's error values as the one user-facing error,
// *intent.Error, so that bot/present.ErrorText says them. The ledger is
// another package's to convert (it should return *intent.Error itself);
// until it does, this is its one mapping, by type and sentinel, and
// nothing else in the bot may word a ledger error. An err that already
// carries an *intent.Error, or is none of these, is returned as it is.
func userError(err error) error {
	var e *intent.Error
	if errors.As(err, &e) {
		return err
	}
	var in *ledger.InputError
	var pe *ledger.PriceError
	switch {
	case errors.As(err, &in):
		return &intent.Error{Code: intent.EINVALID, Field: in.Field, Message: in.Field + ": " + in.Reason, Err: err}
	case errors.As(err, &pe):
		return &intent.Error{Code: intent.EINVALID, Field: "price", Message: pe.Error(), Err: err}
	case errors.Is(err, ledger.ErrForbidden):
		return &intent.Error{Code: intent.EFORBIDDEN, Err: err,
			Message: "only workspace admins can do that", MessageZH: "只有工作区管理员可以这样做"}
	case errors.Is(err, ledger.ErrNotFound):
		return &intent.Error{Code: intent.ENOTFOUND, Err: err, Message: "no such entry", MessageZH: "没有这条记录"}
	case errors.Is(err, ledger.ErrNotSaved):
		return &intent.Error{Code: intent.ENOTSAVED, Err: err}
	}
	return err
}
