package present

import (
	"errors"
	"fmt"
	"strings"
	"unicode"

	"github.com/gpubot/gpubot/advisor"
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

// ErrorText is err as the asker reads it, in lang: the engine's input
// error (what could not be answered and the right form), or the sentence of
// its code (intent.ErrorCode) around its message in that language, then the
// right form ("Try: …"). An error with no *intent.Error in its chain says
// only that something broke: its text is for the log.
func ErrorText(lang Lang, err error) string {
	var in *advisor.InputError
	if errors.As(err, &in) {
		return engineText(lang, in)
	}
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

// engineText says an input the engine refused: the reason (in Chinese when
// the engine gave one, else the value named in Chinese) and the right form.
func engineText(lang Lang, in *advisor.InputError) string {
	switch {
	case lang == ZH && in.ReasonZH != "":
		return fmt.Sprintf("算不了：%s。正确写法示例：%s", in.ReasonZH, in.Hint)
	case lang == ZH:
		return fmt.Sprintf("算不了：%s。正确写法示例：%s", ReasonZH(in.Field, in.Reason), in.Hint)
	}
	return fmt.Sprintf("I can't answer that: %s (%s). Try: %s", in.Reason, in.Field, in.Hint)
}

// AskText is the follow-up question for a value the engine needs and the
// message did not give (the router saw it missing): not an error.
func AskText(lang Lang, in *advisor.InputError) string {
	if lang == ZH {
		reason := in.Reason
		if zh, ok := missingZH[in.Field]; ok {
			reason = zh
		}
		return fmt.Sprintf("还差一点信息：%s。例如：%s", reason, in.Hint)
	}
	return fmt.Sprintf("One more thing: %s. For example: %s", in.Reason, in.Hint)
}

// ReasonZH keeps Chinese answers Chinese: a reason the engine or parser
// wrote only in English becomes a Chinese sentence naming the value that
// was not accepted (the English detail stays in the log and --json error).
func ReasonZH(field, reason string) string {
	for _, r := range reason {
		if unicode.Is(unicode.Han, r) {
			return reason + "（" + field + "）"
		}
	}
	name, ok := FieldsZH[field]
	if !ok {
		name = field
	}
	return "“" + name + "”这一项读不懂或超出可接受的范围"
}

// FieldsZH names the slots in Chinese, for error messages and for
// naming a slot to a Chinese asker.
var FieldsZH = map[string]string{
	"gpu": "显卡", "params_b": "模型大小", "method": "训练/推理方式", "bits": "精度（bits）", "batch": "批大小（bs）",
	"seq": "序列长度（seq）", "seq_len": "序列长度（seq）", "price": "价格（price）", "monthly": "包月价（monthly）",
	"hours_per_month": "每月小时数", "utilization": "利用率（util）", "util": "利用率（util）", "tokens": "token 数",
	"samples": "样本数", "epochs": "轮数（epochs）", "currency": "币种", "other_currency": "币种", "fx": "汇率（fx）", "budget": "预算",
	"platform": "平台", "cards": "卡数", "years": "年限（years）", "mfu": "MFU", "month": "月份", "id": "记录编号",
}

// missingZH asks for the common missing values in Chinese.
var missingZH = map[string]string{
	"tokens":          "训练数据有多少？给出 token 数（如 100M tokens）或样本数（如 5万条 样本）",
	"samples":         "训练数据有多少？给出样本数（如 5万条 样本）或 token 数（如 100M tokens）",
	"gpu":             "哪张卡？请给出型号，例如 4090、H100",
	"params_b":        "模型多大？例如 7b、70B、130亿",
	"monthly":         "包月价格是多少？请用 monthly= 给出每卡每月价格",
	"price":           "价格是多少？请用 price= 给出",
	"hours_per_month": "每月用多少小时？例如 200h",
}
