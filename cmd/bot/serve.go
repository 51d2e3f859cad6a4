package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/store"
)

func serve(ctx context.Context, cfg Config, b *bot.Bot, log *slog.Logger, stdin io.Reader, stdout io.Writer) error {
	st, err := store.Open(ctx, cfg.RedisURL)
	if err != nil {
		return err
	}
	defer st.Close()
	if st.Embedded {
		fmt.Fprintf(stdout, "gpubot: no REDIS_URL set — using an embedded Redis (miniredis) and the shipped price catalogue.\n")
	} else {
		log.Info("redis connected")
	}
	if cfg.SlackBotToken == "" {
		fmt.Fprintln(stdout, "gpubot: no SLACK_BOT_TOKEN — opening the console instead of connecting to Slack.")
		return console(ctx, b, stdin, stdout)
	}
	return errors.New("Slack transports are not wired in this build; unset SLACK_BOT_TOKEN to use the console")
}
