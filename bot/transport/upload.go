package transport

import (
	"context"
	"path"
	"strings"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/gpubot/gpubot/bot/slackpost"
)

// importer takes a bill uploaded to the bot in a DM: it downloads the file
// (with the bot token) and imports it into the team's ledger, returning the
// reply. cmd/bot wires the Slack download to bot.Spend.ImportBill.
type importer interface {
	ImportFile(ctx context.Context, team, user string, f slack.File) (reply string, err error)
}

// upload handles a file shared with the bot in a direct message. It reports
// false for every other event, which then goes the usual way.
func (a *App) upload(ctx context.Context, ev slackevents.EventsAPIEvent, eventID string) bool {
	e, ok := ev.InnerEvent.Data.(*slackevents.MessageEvent)
	if !ok || e.ChannelType != "im" || e.SubType != "file_share" || e.Message == nil || len(e.Message.Files) == 0 {
		return false
	}
	if e.BotID != "" || e.User == "" || e.User == a.cfg.BotUserID {
		return true
	}
	if (eventID != "" && !a.claim(ctx, eventKey(eventID))) || !a.claim(ctx, messageKey(ev.TeamID, e.Channel, e.TimeStamp)) {
		return true
	}
	var replies []string
	for _, f := range e.Message.Files {
		switch {
		case a.cfg.Importer == nil:
			replies = append(replies, "Bill import is not set up on this bot. 这个 bot 没有开启账单导入。")
		case !isCSV(f):
			replies = append(replies, "I import bills as CSV files; "+f.Name+" is not one. Save it as CSV UTF-8 and send it again. 账单请以 CSV 格式发送。")
		default:
			r, err := a.cfg.Importer.ImportFile(ctx, ev.TeamID, e.User, f)
			if err != nil {
				a.log.ErrorContext(ctx, "bill import failed", "team", ev.TeamID, "user", e.User, "file", f.ID, "err", err)
				r = "Something broke on our side while importing " + f.Name + "; it's logged. Nothing was imported. 导入出错，已记录日志。"
			}
			replies = append(replies, r)
		}
	}
	thread := e.ThreadTimeStamp
	if thread == "" {
		thread = e.TimeStamp
	}
	text := strings.Join(replies, "\n\n")
	// The fallback text is mrkdwn (notifications, old clients): file names
	// and CSV cells in it are escaped, so "<!channel>.csv" pings nobody.
	m := slackpost.Message{Channel: e.Channel, ThreadTS: thread, Text: escape(text), Blocks: plainSections(text),
		Key: "import:" + ev.TeamID + ":" + e.Channel + ":" + e.TimeStamp}
	if _, err := a.post.Post(ctx, m); err != nil {
		a.log.ErrorContext(ctx, "import reply not delivered", "team", ev.TeamID, "channel", e.Channel, "err", err)
	}
	return true
}

func isCSV(f slack.File) bool {
	return strings.EqualFold(f.Filetype, "csv") || strings.EqualFold(path.Ext(f.Name), ".csv")
}
