package bot

// For the external tests (package bot_test), which may import the packages
// that import bot: the help golden over the whole intent table.
var (
	CheckGolden = checkGolden
	NewTestBot  = newTestBot
)
