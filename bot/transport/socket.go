package transport

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"
)

// RunSocket connects over Socket Mode and handles envelopes until ctx ends.
// The loop only queues and acks (in that order, so nothing acked is lost): a stalled loop would stop the client
// reading the socket, and Slack's pings with it.
func (a *App) RunSocket(ctx context.Context, sm *socketmode.Client) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- sm.RunContext(ctx) }()
	for {
		select {
		case err := <-done:
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("socket mode: %w", err)
		case evt := <-sm.Events:
			a.socketEvent(ctx, sm, evt)
		}
	}
}

func (a *App) socketEvent(ctx context.Context, sm *socketmode.Client, evt socketmode.Event) {
	defer a.recoverPanic("socket mode " + string(evt.Type))
	switch evt.Type {
	case socketmode.EventTypeConnecting:
		if a.connected.Swap(false) {
			// The connection we had ended and the client opens a new one.
			// Slack closes every connection every few hours (a disconnect
			// envelope the client handles itself, without telling us), so
			// this is routine until reconnecting fails (socketLevel).
			a.refreshing.Store(true)
			a.log.InfoContext(ctx, "socket mode connection ended; reconnecting (Slack refreshes connections every few hours)")
			return
		}
		a.log.DebugContext(ctx, "socket mode connecting")
	case socketmode.EventTypeConnected:
		again := a.refreshing.Swap(false)
		a.connected.Store(true)
		if again {
			a.log.InfoContext(ctx, "reconnected to Slack over Socket Mode")
			return
		}
		a.log.InfoContext(ctx, "connected to Slack over Socket Mode")
	case socketmode.EventTypeConnectionError:
		a.connected.Store(false)
		level := a.socketLevel()
		if e, ok := evt.Data.(*slack.ConnectionErrorEvent); ok && e.Attempt > refreshAttempts {
			level = slog.LevelWarn // a refresh that does not reconnect is an outage
		}
		a.log.Log(ctx, level, "socket mode connection failed; retrying", "err", evt.Data)
	case socketmode.EventTypeInvalidAuth:
		a.connected.Store(false)
		a.log.ErrorContext(ctx, "socket mode: Slack refused the app token")
	case socketmode.EventTypeDisconnect:
		// Clients that pass Slack's disconnect envelope on (this one,
		// v0.35, keeps it to itself; see EventTypeConnecting).
		a.connected.Store(false)
		a.refreshing.Store(true)
		a.log.InfoContext(ctx, "slack asked to reconnect (routine refresh)")
	case socketmode.EventTypeIncomingError, socketmode.EventTypeErrorWriteFailed:
		level := a.socketLevel()
		if closedHere(evt.Data) {
			// The client closed the old socket itself (Slack asked it to
			// reconnect, or it missed Slack's pings) and reconnects: the
			// read or write still pending on it fails with this.
			level = slog.LevelInfo
		}
		a.log.Log(ctx, level, "socket mode I/O error", "type", evt.Type, "err", evt.Data)
	case socketmode.EventTypeErrorBadMessage:
		// An envelope the library could not read (an event type it does not
		// know, say): ack it anyway, or Slack sends it again and again.
		if bad, ok := evt.Data.(*socketmode.ErrorBadMessage); ok {
			var env struct {
				EnvelopeID string `json:"envelope_id"`
			}
			if json.Unmarshal(bad.Message, &env) == nil && env.EnvelopeID != "" {
				a.ack(ctx, sm, env.EnvelopeID, nil)
			}
			a.log.DebugContext(ctx, "socket mode envelope not understood", "err", bad.Cause)
		}
	case socketmode.EventTypeEventsAPI:
		if evt.Request == nil {
			return
		}
		// Queue first, ack after: an event acked and then dropped on a full
		// queue would be lost. Not acked, Slack delivers it again (the
		// event id keeps that to one reply).
		if !a.event(evt.Request.Payload) {
			a.log.WarnContext(ctx, "socket mode event not acked: the queue is full; Slack will redeliver it", "envelope", evt.Request.EnvelopeID)
			return
		}
		a.ack(ctx, sm, evt.Request.EnvelopeID, nil)
	case socketmode.EventTypeSlashCommand:
		cmd, ok := evt.Data.(slack.SlashCommand)
		if !ok || evt.Request == nil {
			return
		}
		ready := make(chan struct{})
		defer close(ready)
		a.ack(ctx, sm, evt.Request.EnvelopeID, a.slash(cmd, ready))
	case socketmode.EventTypeInteractive:
		cb, ok := evt.Data.(slack.InteractionCallback)
		if !ok || evt.Request == nil {
			return
		}
		if cb.Type == slack.InteractionTypeViewSubmission {
			// The ack carries the answer to a modal's submission: errors
			// keep it open, none closes it (modal.go).
			if r := a.submission(cb); r != nil {
				a.ack(ctx, sm, evt.Request.EnvelopeID, r)
			} else {
				a.ack(ctx, sm, evt.Request.EnvelopeID, nil)
			}
			return
		}
		// As for events: unqueued, the click is not acked, and Slack shows
		// the clicker that it failed rather than nothing happening.
		if !a.interact(cb) {
			a.log.WarnContext(ctx, "socket mode click not acked: the queue is full", "envelope", evt.Request.EnvelopeID)
			return
		}
		a.ack(ctx, sm, evt.Request.EnvelopeID, nil)
	}
}

// SocketConnected reports whether the Socket Mode connection is up (for
// readiness); always false over HTTP.
func (a *App) SocketConnected() bool { return a.connected.Load() }

// ack queues the acknowledgement for the client's writer; it waits at most
// a second for room, so the loop never stalls on a dead connection.
func (a *App) ack(ctx context.Context, sm *socketmode.Client, envelopeID string, payload any) {
	ctx, cancel := context.WithTimeout(ctx, time.Second)
	defer cancel()
	if err := sm.AckCtx(ctx, envelopeID, payload); err != nil {
		a.log.WarnContext(ctx, "socket mode ack not sent", "envelope", envelopeID, "err", err)
	}
}

// refreshAttempts is how many failed attempts to reconnect after a
// connection ended are still logged as part of a routine refresh (INFO);
// after that each is a WARN.
const refreshAttempts = 2

// closedHere reports whether a Socket Mode I/O error is the client's own
// close of its socket (net.ErrClosed), not a failure of the network or Slack.
func closedHere(data any) bool {
	var err error
	switch e := data.(type) {
	case *slack.IncomingEventError:
		err = e.ErrorObj
	case *socketmode.ErrorWriteFailed:
		err = e.Cause
	case error:
		err = e
	}
	return err != nil && errors.Is(err, net.ErrClosed)
}

// socketLevel is the level of a Socket Mode connection error: INFO while
// the connection is being replaced because Slack asked (a disconnect
// envelope: Slack refreshes every connection every few hours, and the old
// socket's close surfaces as an I/O error), WARN otherwise.
func (a *App) socketLevel() slog.Level {
	if a.refreshing.Load() {
		return slog.LevelInfo
	}
	return slog.LevelWarn
}
