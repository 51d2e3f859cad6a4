package present

import (
	"errors"
	"strings"

	"github.com/gpubot/gpubot/bot/intent"
)

// codeSentence is each error code's sentence in both languages: %s is the
// error's message (what was read and why), ending with the right form when
// the error has one. The one place a user-facing error becomes words.
var codeSentence = map[string][2]string{
	intent.EINVALID:     {"I couldn't read that: %s.", "没看懂：%s。"},
	intent.ENOTFOUND:    {"Not found: %s.", "找不到：%s。"},
	intent.EFORBIDDEN:   {"Not allowed: %s.", "没有权限：%s。"},
	intent.ECONFLICT:    {"Busy: %s.", "正被占用：%s。"},
	intent.EUNAVAILABLE: {"Not available right now: %s.", "暂时不可用：%s。"},
	intent.ENOTSAVED:    {"NOT saved: %s. Please try again.", "没有保存：%s。请再试一次。"},
}

// codeOnly is the sentence for an error whose message is not in the
// asker's language: the code's meaning alone (the English detail stays in
// the log).
var codeOnly = map[string][2]string{
	intent.EINVALID:     {"I couldn't read a value in that.", "有一项读不懂或超出可接受的范围。"},
	intent.ENOTFOUND:    {"I couldn't find that.", "找不到要找的内容。"},
	intent.EFORBIDDEN:   {"Only workspace admins can do that.", "只有工作区管理员可以这样做。"},
	intent.ECONFLICT:    {"Someone else is using that right now.", "它正被另一个进程占用。"},
	intent.EUNAVAILABLE: {"That is not available right now.", "该功能暂时不可用。"},
	intent.ENOTSAVED:    {"That was NOT saved. Please try again.", "没有保存，请再试一次。"},
}

// internal is what every other error says: nothing of it reaches the user.
var internal = [2]string{"Something broke on our side; it's logged. Please try again.", "我这边出错了，已记录日志。请稍后再试。"}

// ErrorText is err as the asker reads it, in lang: the sentence of its
// code (intent.ErrorCode) around its message in that language, then the
// right form ("Try: …"). An error with no *intent.Error in its chain says
// only that something broke: its text is for the log.
func ErrorText(lang Lang, err error) string {
	var e *intent.Error
	if !errors.As(err, &e) || e.Code == intent.EINTERNAL || codeSentence[e.Code] == [2]string{} {
		return lang.Pick(internal[0], internal[1])
	}
	msg := lang.Pick(e.Message, e.MessageZH)
	s := lang.Pick(codeOnly[e.Code][0], codeOnly[e.Code][1])
	if msg != "" {
		msg = strings.TrimSuffix(strings.TrimSuffix(msg, "."), "。")
		s = strings.Replace(lang.Pick(codeSentence[e.Code][0], codeSentence[e.Code][1]), "%s", msg, 1)
	}
	if e.Hint != "" {
		s += lang.Pick(" Try: ", "正确写法示例：") + e.Hint
	}
	return s
}
