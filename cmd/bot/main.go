// Command bot runs gpubot: the Slack bot, a console, or one-shot answers.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"regexp"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/kelseyhightower/envconfig"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/phrase"
	"github.com/gpubot/gpubot/knowledge"
)

// version is set at build time: -ldflags "-X main.version=…".
var version = "dev"

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "gpubot:", err)
		os.Exit(1)
	}
}

const usage = `usage: bot [command]

commands:
  serve            run the bot (default); with no Slack tokens it opens the console
  console          type messages as you would in Slack: /gpu fit 13b lora, 包月划算吗
  ask TEXT         answer one message and exit
  ask --json TEXT  print the answer as one JSON object
  ask --json -     answer every stdin line, one JSON object per line
  ask --thread ID - read stdin lines as one conversation (follow-ups merge)
  catalog refresh  run every configured price source now; print what each found and what changed
  catalog status   price sources, last success, offer counts and staleness
  catalog diff     what changed since the last daily post's catalogue
  preview daily    print the daily price post as it would go out now [--lang zh|en] [--gpu h100,4090]
  preview recap    print the monthly recap [--month YYYY-MM] [--team T] [--lang zh|en]
  spend import F   import a bill (CSV) into the spend ledger [--team T]
  healthcheck      exit 0 when the running bot's /healthz answers (for container HEALTHCHECK)
  version          print the version
`

// run is the whole program; tests call it with their own arguments and streams.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()

	var cfg Config
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || args[0] == "help") {
		fmt.Fprint(stdout, usage+"\nenvironment:\n")
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		defer tw.Flush()
		return envconfig.Usagef("", &cfg, tw, "{{range .}}  {{usage_key .}}\t{{usage_default .}}\t{{usage_description .}}\n{{end}}")
	}
	if err := envconfig.Process("", &cfg); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	if err := cfg.check(); err != nil {
		return err
	}
	cmd := "serve"
	if len(args) > 0 {
		cmd = args[0]
	}
	log, err := newLogger(cfg.LogLevel, cmd == "serve", stderr, cfg.secrets()...)
	if err != nil {
		return err
	}
	kb, err := knowledge.Shipped()
	if err != nil {
		return fmt.Errorf("load knowledge: %w", err)
	}
	b := bot.New(bot.Config{FX: cfg.FX}, kb, log)

	if len(args) > 0 {
		args = args[1:]
	}
	switch cmd {
	case "version":
		_, err := fmt.Fprintln(stdout, "gpubot", version)
		return err
	case "healthcheck":
		return healthcheck(ctx, cfg.HTTPAddr)
	case "ask":
		phr := phrase.New(phrase.Config{BaseURL: cfg.OpenAIBaseURL, APIKey: cfg.OpenAIAPIKey, Model: cfg.OpenAIModel}, log)
		return withLive(ctx, cfg, kb, b, log, func() error { return ask(ctx, b, phr, args, stdin, stdout) })
	case "console":
		return withLive(ctx, cfg, kb, b, log, func() error { return console(ctx, b, stdin, stdout) })
	case "catalog":
		return catalogCmd(ctx, cfg, kb, log, args, stdout)
	case "preview":
		return previewCmd(ctx, cfg, kb, log, args, stdout)
	case "spend":
		return spendCmd(ctx, cfg, kb, log, args, stdout)
	case "serve":
		return serve(ctx, cfg, kb, b, log, stdin, stdout)
	default:
		return fmt.Errorf("unknown command %q\n%s", cmd, usage)
	}
}

// newLogger builds the process logger: JSON lines in serve mode (for log
// collectors), text elsewhere. Every string that contains a configured
// secret, or looks like a Slack token, is redacted before it is written:
// the handlers never log secrets, and this makes sure of it.
func newLogger(level string, asJSON bool, w io.Writer, secrets ...string) (*slog.Logger, error) {
	var l slog.Level
	if err := l.UnmarshalText([]byte(level)); err != nil {
		return nil, fmt.Errorf("config: BOT_LOG_LEVEL %q: use debug, info, warn or error", level)
	}
	opts := &slog.HandlerOptions{Level: l, ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Value.Kind() == slog.KindString || a.Value.Kind() == slog.KindAny {
			if s := a.Value.String(); s != redact(s, secrets) {
				return slog.String(a.Key, redact(s, secrets))
			}
		}
		return a
	}}
	if asJSON {
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return slog.New(slog.NewTextHandler(w, opts)), nil
}

// slackToken matches Slack bot, user, app and refresh tokens.
var slackToken = regexp.MustCompile(`xox[abposr]-[A-Za-z0-9-]+|xapp-[A-Za-z0-9-]+`)

func redact(s string, secrets []string) string {
	for _, sec := range secrets {
		if len(sec) >= 6 {
			s = strings.ReplaceAll(s, sec, "[redacted]")
		}
	}
	return slackToken.ReplaceAllString(s, "[redacted]")
}

// phrased is the answer as a user would see it: with LLM phrasing
// configured, the model's rewording when it passes the number guard, else
// the template text unchanged.
func phrased(ctx context.Context, b *bot.Bot, phr *phrase.Phraser, a bot.Answer) bot.Answer {
	if !phr.Enabled() || a.Err != "" || b.Writes(a.Intent) { // the team's records and changes never are
		return a
	}
	facts := phrase.FactsFrom(a.Text, a.Result, a.Slots, a.Assumed)
	essential := phrase.EssentialFrom(a.Headline, a.Result, b.EssentialFigures(a.Intent))
	a.Text = phr.Text(ctx, phrase.Input{Lang: a.Lang, Template: a.Text, Facts: facts, Essential: essential})
	return a
}

func ask(ctx context.Context, b *bot.Bot, phr *phrase.Phraser, args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("ask", flag.ContinueOnError)
	asJSON := fs.Bool("json", false, "print one JSON object per answer")
	threadID := fs.String("thread", "", "read the messages as one conversation (follow-ups merge with the last request)")
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("ask: %w\n%s", err, usage)
	}
	msg := func(text string) bot.Message {
		return bot.Message{Text: text, User: "cli", Channel: "cli", Thread: *threadID}
	}
	text := strings.Join(fs.Args(), " ")
	if text == "" {
		return errors.New("ask: nothing to answer; try: bot ask \"/gpu fit 13b lora\"")
	}
	if text == "-" {
		lines := newLineReader(stdin)
		enc := json.NewEncoder(stdout)
		for {
			line, err := lines.next()
			if errors.Is(err, io.EOF) {
				return nil
			}
			if tl, ok := errors.AsType[*tooLong](err); ok {
				// Refuse this line, answer the next ones.
				lang, msg := tl.message()
				if *asJSON {
					if err := enc.Encode(map[string]any{"error": msg, "lang": lang, "line": tl.line, "bytes": tl.bytes, "limit_bytes": maxLine}); err != nil {
						return err
					}
				} else {
					fmt.Fprintln(stdout, msg+"\n")
				}
				continue
			}
			if err != nil {
				return err
			}
			line = strings.TrimSpace(line)
			if line == "" {
				continue
			}
			a := phrased(ctx, b, phr, b.Answer(ctx, msg(line)))
			if *asJSON {
				if err := enc.Encode(a); err != nil {
					return err
				}
			} else {
				fmt.Fprintln(stdout, a.Text+"\n")
			}
		}
	}
	a := phrased(ctx, b, phr, b.Answer(ctx, msg(text)))
	if *asJSON {
		return json.NewEncoder(stdout).Encode(a)
	}
	_, err := fmt.Fprintln(stdout, a.Text)
	return err
}

// console reads messages line by line; a prompt is shown only on a terminal.
func console(ctx context.Context, b *bot.Bot, stdin io.Reader, stdout io.Writer) error {
	interactive := false
	if f, ok := stdin.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			interactive = true
		}
	}
	if interactive {
		fmt.Fprintln(stdout, "gpubot console — type what you would type in Slack (/gpu help, /gpu fit 13b lora, 包月划算吗). Ctrl-D quits.")
	}
	// A line over maxLine arrives as its refusal, shown instead of answered.
	type consoleLine struct{ text, refused string }
	lines := make(chan consoleLine)
	go func() {
		defer close(lines)
		in := newLineReader(stdin)
		for {
			text, err := in.next()
			line := consoleLine{text: text}
			if tl, ok := errors.AsType[*tooLong](err); ok {
				_, line.refused = tl.message()
			} else if err != nil {
				return
			}
			select {
			case lines <- line:
			case <-ctx.Done():
				return
			}
		}
	}()
	for {
		if interactive {
			fmt.Fprint(stdout, "gpu> ")
		}
		select {
		case <-ctx.Done():
			return nil
		case in, ok := <-lines:
			if !ok {
				return nil
			}
			if in.refused != "" {
				fmt.Fprintln(stdout, in.refused+"\n")
				continue
			}
			line := strings.TrimSpace(in.text)
			if line == "" {
				continue
			}
			if line == "quit" || line == "exit" {
				return nil
			}
			a := b.Answer(ctx, bot.Message{Text: line, User: "console", Channel: "console"})
			fmt.Fprintln(stdout, a.Text+"\n")
		}
	}
}

// healthcheck asks the local bot's /healthz; distroless images have no curl.
func healthcheck(ctx context.Context, addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("healthcheck: HTTP_ADDR %q: %w", addr, err)
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "127.0.0.1"
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+net.JoinHostPort(host, port)+"/healthz", nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("healthcheck: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("healthcheck: /healthz answered %s", resp.Status)
	}
	return nil
}
