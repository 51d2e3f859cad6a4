package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gpubot/gpubot/bot"
	"github.com/gpubot/gpubot/bot/ledger"
)

// The admin socket lets the command line change the state of a running
// embedded bot. In embedded mode the bot's process owns the data directory
// (store.OpenEmbedded holds its lock); a second process loading the same
// state and saving it later would lose the first one's writes (an import
// printed "1 added" and vanished at serve's next save). So `bot spend
// import` and `bot catalog refresh`, finding the directory locked, send the
// work to the bot over this socket instead.
//
// The socket is a Unix socket in the data directory (0700), answering HTTP;
// every request must carry the token from the 0600 file beside it, so only
// the user who runs the bot can use it.
const (
	adminSocket = "admin.sock"
	adminToken  = "admin.token"
)

// startAdmin serves the admin socket in dir until ctx ends; stop waits for it.
func startAdmin(ctx context.Context, d *deps, dir string, log *slog.Logger) (stop func(), err error) {
	tok := make([]byte, 32)
	rand.Read(tok)
	token := hex.EncodeToString(tok)
	if err := os.WriteFile(filepath.Join(dir, adminToken), []byte(token+"\n"), 0o600); err != nil {
		return nil, fmt.Errorf("admin socket token: %w", err)
	}
	sock := filepath.Join(dir, adminSocket)
	os.Remove(sock) // a stale socket of a process that died; the data dir lock says we own it now
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return nil, fmt.Errorf("admin socket: %w", err)
	}
	os.Chmod(sock, 0o600)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/spend/import", d.adminImport)
	mux.HandleFunc("POST /v1/spend/supersede", d.adminSupersede)
	mux.HandleFunc("POST /v1/catalog/refresh", d.adminRefresh)
	srv := &http.Server{
		Handler:           adminAuth(token, mux),
		ReadHeaderTimeout: 5 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return ctx },
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
			log.Error("admin socket", "err", err)
		}
	}()
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	return func() {
		srv.Close()
		<-done
		os.Remove(sock)
		os.Remove(filepath.Join(dir, adminToken))
	}, nil
}

func adminAuth(token string, next http.Handler) http.Handler {
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			http.Error(w, "bad admin token", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// adminError is the JSON body of a failed admin call.
type adminError struct {
	Error string `json:"error"`
	Input bool   `json:"input,omitempty"` // the user's mistake, not the bot's
}

func writeAdmin(w http.ResponseWriter, v any, err error) {
	w.Header().Set("Content-Type", "application/json")
	if err != nil {
		var in *ledger.InputError
		code := http.StatusInternalServerError
		if errors.As(err, &in) {
			code = http.StatusBadRequest
		}
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(adminError{Error: err.Error(), Input: code == http.StatusBadRequest})
		return
	}
	json.NewEncoder(w).Encode(v)
}

func (d *deps) adminImport(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	res, err := d.ledger.ImportWith(r.Context(), q.Get("team"), q.Get("user"), io.LimitReader(r.Body, bot.MaxBillBytes+1), q.Get("name"),
		ledger.ImportOptions{ConfirmPrices: q.Get("confirm") == "true"})
	writeAdmin(w, res, err)
}

func (d *deps) adminSupersede(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	e, err := d.ledger.Supersede(r.Context(), q.Get("team"), q.Get("chat"), q.Get("bill"))
	writeAdmin(w, e, err)
}

func (d *deps) adminRefresh(w http.ResponseWriter, r *http.Request) {
	rep, err := d.daily.Refresh(r.Context(), time.Now())
	if err != nil {
		writeAdmin(w, nil, err)
		return
	}
	if r.URL.Query().Get("json") != "" {
		writeAdmin(w, rep, nil)
		return
	}
	var b bytes.Buffer
	if err := d.printRefresh(r.Context(), &b, rep); err != nil {
		writeAdmin(w, nil, err)
		return
	}
	writeAdmin(w, map[string]string{"text": b.String()}, nil)
}

// adminClient calls the running bot's admin socket in dir.
type adminClient struct {
	http  *http.Client
	token string
}

func dialAdmin(dir string) (*adminClient, error) {
	tok, err := os.ReadFile(filepath.Join(dir, adminToken))
	if err != nil {
		return nil, fmt.Errorf("the running bot's admin socket: %w", err)
	}
	sock := filepath.Join(dir, adminSocket)
	tr := &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
		var dl net.Dialer
		return dl.DialContext(ctx, "unix", sock)
	}}
	return &adminClient{http: &http.Client{Transport: tr, Timeout: 2 * time.Minute}, token: strings.TrimSpace(string(tok))}, nil
}

// call posts body to path and decodes the answer into out.
func (c *adminClient) call(ctx context.Context, path string, q url.Values, body io.Reader, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://gpubot"+path+"?"+q.Encode(), body)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.token)
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("the running bot's admin socket: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var e adminError
		json.NewDecoder(resp.Body).Decode(&e)
		if e.Error == "" {
			e.Error = resp.Status
		}
		if e.Input {
			return &ledger.InputError{Reason: e.Error}
		}
		return fmt.Errorf("the running bot: %s", e.Error)
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// adminRefreshCmd runs `bot catalog refresh` in the running bot that holds
// the data dir (locked is the error that said so) and prints its report.
func adminRefreshCmd(ctx context.Context, cfg Config, locked error, asJSON bool, stdout io.Writer) error {
	c, err := dialAdmin(cfg.DataDir)
	if err != nil {
		return fmt.Errorf("%w, and its admin socket is not reachable: %w", locked, err)
	}
	q := url.Values{}
	if asJSON {
		q.Set("json", "1")
		var raw json.RawMessage
		if err := c.call(ctx, "/v1/catalog/refresh", q, nil, &raw); err != nil {
			return fmt.Errorf("catalog refresh: %w", err)
		}
		_, err := fmt.Fprintln(stdout, string(raw))
		return err
	}
	var out struct{ Text string }
	if err := c.call(ctx, "/v1/catalog/refresh", q, nil, &out); err != nil {
		return fmt.Errorf("catalog refresh: %w", err)
	}
	_, err = io.WriteString(stdout, out.Text)
	return err
}
