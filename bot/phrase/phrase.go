// Package phrase lets an optional LLM reword an answer the advisor engine
// already produced, and guards that the rewording changed, added and dropped
// no number.
//
// The engine decides; the model only rephrases. The prompt carries the
// template answer, its facts as JSON and the asker's language; the reply is
// accepted only if Check finds every number in it among the facts (after
// unit normalisation and rounding, see Check) and every essential fact in it.
// Anything else — no endpoint configured, a hung, failing, rate-limited or
// malformed endpoint, a rejected rephrase — leaves the template answer as it
// is. The bot works the same without an LLM.
//
// Typical use in a transport ("no added latency"):
//
//	facts := phrase.FactsFrom(a.Text, a.Result, a.Slots, a.Assumed)
//	essential := phrase.EssentialFrom(a.Headline, a.Result, keys) // the intent's headline figures
//	ts := post(a.Text) // the template goes out at once
//	p.Improve(runCtx, phrase.Input{Lang: a.Lang, Template: a.Text, Facts: facts, Essential: essential},
//		func(text string) { update(ts, text) }) // chat.update / response_url replace_original
//
// and in a one-shot command (bot ask): fmt.Println(p.Text(ctx, in)).
package phrase

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"

	openai "github.com/sashabaranov/go-openai"

	"github.com/gpubot/gpubot/bot/intent"
)

// DefaultTimeout bounds one rephrase, retries included.
const DefaultTimeout = 8 * time.Second

// DefaultModel is asked for when BaseURL is set and Model is not.
const DefaultModel = "gpt-4o-mini"

// Config holds the phraser's plain settings, read by cmd/bot from
// OPENAI_BASE_URL, OPENAI_API_KEY and OPENAI_MODEL.
//
// The phraser is on when BaseURL is set (a local vLLM or Ollama server may
// need no key) or when both APIKey and Model are set (api.openai.com).
// BaseURL includes the API version path, as the OpenAI SDKs expect:
// https://api.deepseek.com/v1, https://dashscope.aliyuncs.com/compatible-mode/v1,
// http://localhost:8000/v1 (vLLM), http://localhost:11434/v1 (Ollama).
type Config struct {
	BaseURL   string
	APIKey    string
	Model     string
	Timeout   time.Duration // per rephrase, retries included; DefaultTimeout when 0
	MaxTokens int           // sent as max_tokens (max_completion_tokens for o-series/GPT-5) when > 0

	// Concurrency caps the rephrases waiting on the endpoint at once (Improve
	// skips the rest); DefaultConcurrency when 0.
	Concurrency int
	// BreakAfter failures in a row (timeouts, transport errors, 5xx, 429)
	// open the circuit breaker: rephrasing is skipped for CoolDown, then one
	// call tries again. DefaultBreakAfter and DefaultCoolDown when 0.
	BreakAfter int
	CoolDown   time.Duration
	// Now is the breaker's clock; time.Now when nil.
	Now func() time.Time `ignored:"true"`

	// Metrics, when set, counts calls, rejections and latency.
	Metrics *Metrics `ignored:"true"`
}

// Input is one answer to rephrase.
type Input struct {
	Lang      string // "zh" or "en": the language of the asker and of the reply
	Template  string // the deterministic answer text; always allowed as a fact
	Facts     []Fact // what the answer may say (FactsFrom, GuideFacts)
	Essential []Fact // what the rephrase must keep; a subset of Facts, by value
}

// ErrDisabled is returned by Rephrase when no endpoint is configured.
var ErrDisabled = &intent.Error{Code: intent.EUNAVAILABLE, Message: "llm phrasing is not configured", MessageZH: "未配置 LLM 改写"}

// ErrBreakerOpen is returned by Rephrase while the circuit breaker is open:
// the endpoint failed BreakAfter times in a row and is left alone for the
// cool-down.
var ErrBreakerOpen = &intent.Error{Code: intent.EUNAVAILABLE, Message: "llm rephrasing paused after repeated endpoint failures", MessageZH: "LLM 接口连续出错，改写已暂停"}

// errBadResponse marks a reply that is not a usable chat completion.
var errBadResponse = errors.New("llm returned no usable text")

// RejectedError is returned by Rephrase when the model's text fails the
// number guard. Text is the rejected rephrase, for logs only.
type RejectedError struct {
	Text    string
	Reasons []string
}

func (e *RejectedError) Error() string {
	return "llm rephrase rejected by the number guard: " + strings.Join(e.Reasons, "; ")
}

// As lets errors.As read e as an *intent.Error: internal (the template
// answer stands; the rejected text and reasons are for the log only).
func (e *RejectedError) As(target any) bool {
	t, ok := target.(**intent.Error)
	if ok {
		*t = &intent.Error{Code: intent.EINTERNAL, Message: "the rephrase changed a figure and was refused", Err: e}
	}
	return ok
}

// Phraser rephrases answers through an OpenAI-compatible chat endpoint. The
// zero value and a nil *Phraser are disabled. It is safe for concurrent use.
type Phraser struct {
	client    *openai.Client
	model     string
	timeout   time.Duration
	maxTokens int
	metrics   *Metrics
	log       *slog.Logger
	slots     chan struct{} // one per rephrase in flight (Improve)
	breaker   *breaker
}

// New builds a phraser; it is disabled (Enabled reports false, Rephrase
// returns ErrDisabled, Improve does nothing) unless cfg names an endpoint.
func New(cfg Config, log *slog.Logger) *Phraser {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	p := &Phraser{log: log, metrics: cfg.Metrics, timeout: cfg.Timeout, maxTokens: cfg.MaxTokens, model: cfg.Model}
	if p.timeout <= 0 {
		p.timeout = DefaultTimeout
	}
	if cfg.Concurrency <= 0 {
		cfg.Concurrency = DefaultConcurrency
	}
	if cfg.BreakAfter <= 0 {
		cfg.BreakAfter = DefaultBreakAfter
	}
	if cfg.CoolDown <= 0 {
		cfg.CoolDown = DefaultCoolDown
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	p.slots = make(chan struct{}, cfg.Concurrency)
	p.breaker = &breaker{breakAfter: cfg.BreakAfter, coolDown: cfg.CoolDown, now: cfg.Now, onChange: func(open bool) {
		p.metrics.breakerOpen(open)
		if open {
			p.log.Warn("llm rephrasing paused: the endpoint keeps failing", "failures", cfg.BreakAfter, "cool_down", cfg.CoolDown.String())
		} else {
			p.log.Info("llm rephrasing resumed: the endpoint answers again")
		}
	}}
	if cfg.BaseURL == "" && (cfg.APIKey == "" || cfg.Model == "") {
		return p
	}
	if p.model == "" {
		p.model = DefaultModel
	}
	oc := openai.DefaultConfig(cfg.APIKey)
	if cfg.BaseURL != "" {
		oc.BaseURL = strings.TrimRight(cfg.BaseURL, "/")
	}
	oc.HTTPClient = doer{c: &http.Client{Timeout: p.timeout}}
	p.client = openai.NewClientWithConfig(oc)
	return p
}

// Enabled reports whether an endpoint is configured.
func (p *Phraser) Enabled() bool { return p != nil && p.client != nil }

// Rephrase asks the model to reword in.Template and returns the reword only
// if it passes Check against in.Facts (plus the template itself) and
// in.Essential. It gives up after the configured timeout. On any error —
// ErrDisabled, a transport or HTTP error, a malformed reply, or a
// *RejectedError — the caller shows in.Template. A 429 is retried once, and
// only when its Retry-After fits in the time left.
func (p *Phraser) Rephrase(ctx context.Context, in Input) (string, error) {
	if !p.Enabled() {
		return "", ErrDisabled
	}
	if !p.breaker.allow() {
		p.metrics.observe(OutcomeSkippedOpen, 0, nil)
		return "", ErrBreakerOpen
	}
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	return p.rephrase(ctx, in)
}

// Text returns the guarded rephrase of in, or in.Template when phrasing is
// off, fails or is rejected; failures are logged. It blocks for at most the
// timeout. Use it where the answer is printed once (bot ask).
func (p *Phraser) Text(ctx context.Context, in Input) string {
	text, err := p.Rephrase(ctx, in)
	if err != nil {
		p.logFailure(ctx, err)
		return in.Template
	}
	return text
}

// Improve is the no-added-latency path. The caller posts in.Template first;
// Improve then rephrases in the background and calls deliver(text) — at most
// once, from its own goroutine — only if a rephrase passes the guard within
// the timeout and differs from the template. The caller's deliver replaces
// the posted message in place (chat.update with the message ts, or a
// response_url POST with replace_original). If phrasing is off, fails, is
// rejected, or ctx ends first, deliver is never called and the template
// stands; failures are logged.
//
// Improve never queues: at most Concurrency rephrases wait on the endpoint
// at once, and one that finds every slot taken is skipped
// (llm_calls_total{outcome="skipped_busy"}), as is every rephrase while the
// circuit breaker is open (outcome "skipped_breaker"; llm_breaker_open is 1).
// So a slow or dead endpoint costs a handful of goroutines, never an
// answer's time.
//
// Pass a context that outlives the request handler (the server's run
// context): Improve stops when it is done. The returned channel is closed
// when Improve has finished, for tests and graceful shutdown.
func (p *Phraser) Improve(ctx context.Context, in Input, deliver func(text string)) <-chan struct{} {
	return p.ImproveFunc(ctx, func() Input { return in }, deliver)
}

// ImproveFunc is Improve with the input built by build, in the background
// and only when the rephrase is admitted: collecting an answer's facts
// costs as much CPU as rendering it, wasted on a rephrase that is skipped.
func (p *Phraser) ImproveFunc(ctx context.Context, build func() Input, deliver func(text string)) <-chan struct{} {
	done := make(chan struct{})
	if !p.Enabled() || deliver == nil || build == nil {
		close(done)
		return done
	}
	// Bounded, never queued: with every slot taken (a slow endpoint) or
	// the breaker open (a dead one) the template simply stands.
	select {
	case p.slots <- struct{}{}:
	default:
		p.metrics.observe(OutcomeSkippedBusy, 0, nil)
		close(done)
		return done
	}
	if !p.breaker.allow() {
		<-p.slots
		p.metrics.observe(OutcomeSkippedOpen, 0, nil)
		close(done)
		return done
	}
	go func() {
		defer close(done)
		defer func() { <-p.slots }()
		in := build()
		ctx, cancel := context.WithTimeout(ctx, p.timeout)
		defer cancel()
		text, err := p.rephrase(ctx, in)
		if err != nil {
			p.logFailure(ctx, err)
			return
		}
		if ctx.Err() != nil || text == strings.TrimSpace(in.Template) {
			return
		}
		deliver(text)
	}()
	return done
}

func (p *Phraser) logFailure(ctx context.Context, err error) {
	if p == nil || errors.Is(err, ErrDisabled) || errors.Is(err, ErrBreakerOpen) {
		return
	}
	var rej *RejectedError
	if errors.As(err, &rej) {
		p.log.InfoContext(ctx, "llm rephrase rejected", "reasons", rej.Reasons)
		return
	}
	p.log.WarnContext(ctx, "llm rephrase failed", "err", err)
}

func (p *Phraser) rephrase(ctx context.Context, in Input) (string, error) {
	if strings.TrimSpace(in.Template) == "" {
		p.breaker.cancel()
		return "", errors.New("llm rephrase: empty template")
	}
	start := time.Now()
	text, err := p.complete(ctx, in)
	elapsed := time.Since(start)
	if err != nil {
		o := outcome(ctx, err)
		// A caller that gave up (shutdown) says nothing about the endpoint.
		p.breaker.done(endpointFailure(o) && !errors.Is(ctx.Err(), context.Canceled))
		p.metrics.observe(o, elapsed, nil)
		return "", fmt.Errorf("llm rephrase: %w", err)
	}
	p.breaker.done(false)
	text = Sanitize(text)
	facts := allowed(in)
	ok, reasons := Check(text, facts, in.Essential)
	if ok {
		ok, reasons = CheckHeadline(text, in.Template, in.Essential)
	}
	if ok {
		ok, reasons = CheckClaims(text, in.Template, facts)
	}
	if !ok {
		p.metrics.observe(OutcomeRejected, elapsed, reasons)
		return "", &RejectedError{Text: text, Reasons: reasons}
	}
	p.metrics.observe(OutcomeOK, elapsed, nil)
	return text, nil
}

// allowed is in.Facts with the template as a text fact.
func allowed(in Input) []Fact {
	for _, f := range in.Facts {
		if f.Text == in.Template {
			return in.Facts
		}
	}
	return append(append([]Fact(nil), in.Facts...), Fact{Name: AnswerFact, Text: in.Template})
}

// outcome classifies a failed call for llm_calls_total.
func outcome(ctx context.Context, err error) string {
	var apiErr *openai.APIError
	var reqErr *openai.RequestError
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded):
		return OutcomeTimeout
	case errors.As(err, &apiErr):
		return statusOutcome(apiErr.HTTPStatusCode)
	case errors.As(err, &reqErr):
		return statusOutcome(reqErr.HTTPStatusCode)
	case errors.Is(err, errBadResponse), errors.As(err, &syn), errors.As(err, &typ), errors.Is(err, io.ErrUnexpectedEOF):
		return OutcomeBadResponse
	}
	return OutcomeError
}

func statusOutcome(code int) string {
	if code == http.StatusTooManyRequests {
		return OutcomeRateLimited
	}
	return OutcomeHTTPError
}

func statusCode(err error) int {
	var apiErr *openai.APIError
	if errors.As(err, &apiErr) {
		return apiErr.HTTPStatusCode
	}
	var reqErr *openai.RequestError
	if errors.As(err, &reqErr) {
		return reqErr.HTTPStatusCode
	}
	return 0
}

// defaultRetryWait is the pause before retrying a 429 that names no
// Retry-After.
const defaultRetryWait = 500 * time.Millisecond

// complete makes the chat call, retrying a 429 once if its Retry-After fits
// before the deadline.
func (p *Phraser) complete(ctx context.Context, in Input) (string, error) {
	req := p.request(in)
	for attempt := 0; ; attempt++ {
		hint := &retryHint{}
		resp, err := p.client.CreateChatCompletion(context.WithValue(ctx, retryKey{}, hint), req)
		if err == nil {
			return replyText(resp)
		}
		if attempt > 0 || statusCode(err) != http.StatusTooManyRequests {
			return "", err
		}
		wait, ok := retryAfter(hint.header, time.Now())
		if !ok {
			wait = defaultRetryWait
		}
		if deadline, has := ctx.Deadline(); has && time.Until(deadline) <= wait {
			return "", err // the endpoint asks us to wait past our deadline
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return "", err
		case <-t.C:
		}
	}
}

// request builds a chat completion request with only the fields every
// OpenAI-compatible server accepts: model, messages, temperature and, when
// configured, a token limit. Reasoning models (o1/o3/o4, GPT-5 and later)
// reject temperature and max_tokens, so they get neither and
// max_completion_tokens instead.
func (p *Phraser) request(in Input) openai.ChatCompletionRequest {
	req := openai.ChatCompletionRequest{
		Model: p.model,
		Messages: []openai.ChatCompletionMessage{
			{Role: openai.ChatMessageRoleSystem, Content: SystemPrompt(in.Lang)},
			{Role: openai.ChatMessageRoleUser, Content: UserPrompt(in)},
		},
	}
	if reasoningModel(p.model) {
		req.MaxCompletionTokens = p.maxTokens
		return req
	}
	req.Temperature = 0.2
	//lint:ignore SA1019 OpenAI-compatible servers (Qwen, DeepSeek, vLLM) read max_tokens
	req.MaxTokens = p.maxTokens
	return req
}

func reasoningModel(m string) bool {
	m = strings.ToLower(m)
	for _, pre := range []string{"o1", "o3", "o4", "gpt-5", "gpt-6"} {
		if strings.HasPrefix(m, pre) {
			return true
		}
	}
	return false
}

func langName(lang string) string {
	if lang == "zh" {
		return "Simplified Chinese (简体中文)"
	}
	return "English"
}

// SystemPrompt is the instruction the model gets: reword concisely in the
// asker's language, keep every number and unit exactly, add none.
func SystemPrompt(lang string) string {
	return "You reword answers from a deterministic GPU procurement calculator for a team chat. " +
		"Rewrite ANSWER in " + langName(lang) + " so it reads like a helpful colleague wrote it: concise, direct, no preamble.\n" +
		"Rules:\n" +
		"- Keep every number exactly as written in ANSWER, with its unit and currency (¥/元 stays CNY, $ stays USD). " +
		"Do not convert, recompute, round or add any number, date, price, GPU or model name.\n" +
		"- Keep every fact listed under \"essential\" in FACTS.\n" +
		"- Use only what ANSWER and FACTS say; add no advice, claims or sources of your own. You may leave out minor detail.\n" +
		"- Plain Slack text; short bullets are fine; no tables, no headings, no code blocks.\n" +
		"Reply with the rewritten answer only."
}

// maxPromptFacts caps the facts sent to the model; the guard still checks
// against all of them.
const maxPromptFacts = 200

// UserPrompt is the user message: the language, the template answer and the
// facts as JSON ({"lang", "essential", "facts"}).
func UserPrompt(in Input) string {
	lang := in.Lang
	if lang != "zh" {
		lang = "en"
	}
	var facts []Fact
	for _, f := range in.Facts {
		if f.Text != "" && f.Text == in.Template {
			continue // the template is sent once, as ANSWER
		}
		facts = append(facts, f)
	}
	if len(facts) > maxPromptFacts {
		facts = facts[:maxPromptFacts]
	}
	if facts == nil {
		facts = []Fact{}
	}
	ess := in.Essential
	if ess == nil {
		ess = []Fact{}
	}
	b, err := json.Marshal(struct {
		Lang      string `json:"lang"`
		Essential []Fact `json:"essential"`
		Facts     []Fact `json:"facts"`
	}{lang, ess, facts})
	if err != nil {
		b = []byte("{}")
	}
	return "Language: " + lang + " (" + langName(lang) + ")\n\n" +
		"ANSWER:\n" + in.Template + "\n\n" +
		"FACTS (JSON):\n" + string(b)
}

var (
	thinkRe = regexp.MustCompile(`(?s)<think>.*?</think>`)
	fenceRe = regexp.MustCompile("(?s)^```[a-zA-Z]*\n(.*?)\n?```$")
)

// replyText takes the first choice's text, without the reasoning block some
// servers put in the content (DeepSeek-R1, Qwen3 via vLLM or Ollama) or a
// code fence around it.
func replyText(resp openai.ChatCompletionResponse) (string, error) {
	if len(resp.Choices) == 0 {
		return "", fmt.Errorf("%w: no choices", errBadResponse)
	}
	text := thinkRe.ReplaceAllString(resp.Choices[0].Message.Content, "")
	if i := strings.Index(text, "</think>"); i >= 0 { // an opening tag the server swallowed
		text = text[i+len("</think>"):]
	}
	text = strings.TrimSpace(text)
	if m := fenceRe.FindStringSubmatch(text); m != nil {
		text = strings.TrimSpace(m[1])
	}
	if text == "" {
		return "", fmt.Errorf("%w: empty content", errBadResponse)
	}
	return text, nil
}

// retryKey carries a *retryHint through the request context so that doer can
// report a 429's Retry-After, which go-openai's errors do not keep.
type retryKey struct{}

type retryHint struct{ header string }

// doer is the HTTP client go-openai uses; it notes Retry-After on a 429.
type doer struct{ c *http.Client }

func (d doer) Do(req *http.Request) (*http.Response, error) {
	resp, err := d.c.Do(req)
	if err == nil && resp.StatusCode == http.StatusTooManyRequests {
		if h, ok := req.Context().Value(retryKey{}).(*retryHint); ok {
			h.header = resp.Header.Get("Retry-After")
		}
	}
	return resp, err
}

// retryAfter reads a Retry-After header: seconds or an HTTP date.
func retryAfter(h string, now time.Time) (time.Duration, bool) {
	h = strings.TrimSpace(h)
	if h == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(h); err == nil && s >= 0 {
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(h); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
