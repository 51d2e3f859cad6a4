package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/gpubot/gpubot/advisor"
	"github.com/gpubot/gpubot/bot/parse"
	"github.com/gpubot/gpubot/bot/present"
)

// apiWords make a serving-cost question a self-host-vs-API one.
var apiWords = []string{"api", "调接口", "接口", "托管", "hosted", "自建还是", "self-host", "self host"}

func asksAPI(text string) bool { return hasAny(strings.ToLower(text), apiWords) }

// apiFamilies are the names of model families whose own API a question
// may name ("走Kimi的API", "调豆包API"), by the family advisor knows.
var apiFamilies = []struct {
	family string
	words  []string
}{
	{"kimi", []string{"kimi", "moonshot", "月之暗面"}}, {"doubao", []string{"豆包", "doubao", "火山方舟"}},
	{"qwen", []string{"通义", "千问", "dashscope", "百炼"}}, {"deepseek", []string{"deepseek官方", "深度求索", "deepseek 官方", "官方api", "官方 api"}},
	{"glm", []string{"智谱", "glm"}}, {"ernie", []string{"文心", "千帆", "ernie"}}, {"minimax", []string{"minimax"}},
	{"openai", []string{"openai", "gpt-4o", "gpt-4.1", "gpt-4", "chatgpt"}},
	{"deepseek", []string{"deepseek api", "deepseek 的 api", "deepseek的api"}},
}

// namedAPI is the family whose API the question names, "" when none;
// "官方API" names the family of the model asked about.
func namedAPI(text, model string) string {
	t := strings.ToLower(text)
	for _, f := range apiFamilies {
		for _, w := range f.words {
			if !strings.Contains(t, w) {
				continue
			}
			if strings.HasPrefix(w, "官方") || strings.HasSuffix(w, "官方") {
				if fam := familyPrefix(model); fam != "" {
					return fam
				}
				continue
			}
			return f.family
		}
	}
	return ""
}

// familyPrefix is the family of a model id by its first letters.
func familyPrefix(model string) string {
	m := strings.ToLower(model)
	for _, f := range apiFamilies {
		if strings.HasPrefix(m, f.family) {
			return f.family
		}
	}
	return ""
}

// APIView is the self-host-vs-API answer: the serving plan and the API bills.
type APIView struct {
	advisor.APIResult
	SelfHost advisor.CostResult `json:"self_host"`
}

// api sizes the self-hosted plan with the cost engine, then bills the same
// load on every sourced host of the model.
func (b *Bot) api(ctx context.Context, a *Answer, req parse.Request) error {
	if err := b.cost(ctx, a, req); err != nil {
		return err
	}
	cr, ok := a.Result.(advisor.CostResult)
	if !ok || cr.Plan == nil {
		return nil // no serving plan (no load, or an image model): the cost answer stands
	}
	in := advisor.APIInput{
		Model: cmpOr(req.Slots.Model, req.Slots.Arch), TokensPerDay: req.Slots.TokensPerDay,
		InputTokens: cr.Inputs.InputTokens, OutputTokens: cr.Inputs.OutputTokens,
		Currency: cr.Currency, FX: b.fx(req.Slots), SelfHost: cr.Plan, Prices: b.kb.Procurement.APIs,
	}
	in.Named = namedAPI(req.Text, in.Model)
	res, err := advisor.CompareAPI(in)
	if err != nil {
		// no API price for this model: the cost answer stands, says nothing
		// it cannot source, and says why the API side is missing
		d := a.Doc
		en, zh := "No hosted API price for this model is in the data", "数据里没有这个模型的 API 报价"
		if in.Model != "" {
			en, zh = "No hosted API price for "+in.Model+" is in the data", "数据里没有 "+in.Model+" 的 API 报价"
		}
		d.Summary = append([]string{tr(a.Lang,
			en+", so the API side is not compared: the self-hosted bill above is what to weigh against your API invoice.",
			zh+"，所以没有和 API 对比：拿上面的自建月费和你的 API 账单比即可。")}, d.Summary...)
		a.show(d)
		return nil
	}
	a.Intent = "api"
	for _, k := range []string{"cards", "method", "bits", "seq_len", "input_tokens", "output_tokens", "requests_per_s", "peak_requests_per_s", "platform", "engine"} {
		a.use(k, "the self-hosted serving plan")
	}
	a.Result = APIView{APIResult: res, SelfHost: cr}
	a.show(renderAPI(a.Lang, res, cr, a.Assumed))
	return nil
}

// apiPerM weighs a self-hosted cost per million tokens against the APIs
// when the question asks for both ("每百万token成本多少？跟官方API价差几倍？"):
// the same requests billed by the API the question names, else the
// model's cheapest host. ok is false when the question does not ask, or
// no API price is sourced (the answer then says so).
func (b *Bot) apiPerM(req parse.Request, res advisor.CostResult) (advisor.APIPerMResult, bool, error) {
	if !asksAPI(req.Text) || res.Plan != nil || res.PerMTokens <= 0 || res.Inputs.Workload.Method != advisor.Inference {
		return advisor.APIPerMResult{}, false, nil
	}
	model := cmpOr(req.Slots.Model, req.Slots.Arch)
	in := advisor.APIInput{Model: model, InputTokens: res.Inputs.InputTokens, OutputTokens: res.Inputs.OutputTokens,
		Currency: res.Currency, FX: b.fx(req.Slots), Prices: b.kb.Procurement.APIs, Named: namedAPI(req.Text, model)}
	cmp, err := advisor.CompareAPIPerM(in, res.PerMTokens)
	return cmp, err == nil, err
}

// withAPIPerM adds the API's price per million output tokens and the
// ratio to a cost answer's headline, the steps to its working.
func withAPIPerM(lang string, d present.Doc, c advisor.APIPerMResult) present.Doc {
	cur := string(c.Currency)
	q := c.Best
	ratio := tr(lang, fmt.Sprintf("self-hosting costs %s× the API", fmtNum(c.Ratio)), fmt.Sprintf("自建是 API 的 %s 倍", fmtNum(c.Ratio)))
	if c.Ratio > 0 && c.Ratio < 0.5 {
		// a small fraction reads better the other way round
		ratio = tr(lang, fmt.Sprintf("the API costs %s× self-hosting", fmtNum(c.APIRatio)), fmt.Sprintf("API 是自建的 %s 倍", fmtNum(c.APIRatio)))
	}
	if q.FirstParty {
		ratio += tr(lang, " (the API is a different model)", "（API 是另一个模型）")
	}
	d.Headline += tr(lang,
		fmt.Sprintf("; %s %s bills %s per million output tokens for the same requests — %s", q.Provider, q.Model, moneyStr(c.PerMOutput, cur), ratio),
		fmt.Sprintf("；同样的请求 %s %s 每百万输出 token %s——%s", q.Provider, q.Model, moneyStr(c.PerMOutput, cur), ratio))
	var wk working
	wk.result(lang, c.Lines, c.Assumptions, nil)
	d.Working = append(d.Working, wk...)
	return d
}
