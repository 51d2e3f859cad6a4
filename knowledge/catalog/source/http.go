package source

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// HTTPOptions tune how API and hosted-catalogue sources call out. The zero
// value is usable.
type HTTPOptions struct {
	Client     *http.Client  // nil: a client with a 60 s timeout
	MaxRetries int           // retries after 429 / 502 / 503 / 504 or a transport error; 3
	MaxWait    time.Duration // longest single wait (Retry-After or backoff); 60 s. A longer Retry-After fails the fetch.
	MaxBody    int64         // bytes read from one response; 64 MiB
	UserAgent  string        // "gpubot-catalog"
	// Wait sleeps between attempts; nil waits on a timer. Tests record the
	// waits instead of sleeping.
	Wait func(ctx context.Context, d time.Duration) error
}

func (o HTTPOptions) withDefaults() HTTPOptions {
	if o.Client == nil {
		o.Client = &http.Client{Timeout: 60 * time.Second}
	}
	if o.MaxRetries <= 0 {
		o.MaxRetries = 3
	}
	if o.MaxWait <= 0 {
		o.MaxWait = 60 * time.Second
	}
	if o.MaxBody <= 0 {
		o.MaxBody = 64 << 20
	}
	if o.UserAgent == "" {
		o.UserAgent = "gpubot-catalog"
	}
	if o.Wait == nil {
		o.Wait = func(ctx context.Context, d time.Duration) error {
			t := time.NewTimer(d)
			defer t.Stop()
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-t.C:
				return nil
			}
		}
	}
	return o
}

// request is one call: the body is re-sent on every attempt.
type request struct {
	method string
	url    string
	body   []byte
	header http.Header
}

// StatusError is a non-2xx answer that retries did not fix.
type StatusError struct {
	Code    int
	Snippet string // the start of the body, for the log
}

func (e *StatusError) Error() string {
	if e.Snippet == "" {
		return "http " + strconv.Itoa(e.Code)
	}
	return fmt.Sprintf("http %d: %s", e.Code, e.Snippet)
}

func retryable(code int) bool {
	switch code {
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// do sends req, retrying rate limits and transient failures a bounded number
// of times, honouring Retry-After (seconds or an HTTP date) and otherwise
// backing off 1 s, 2 s, 4 s …; it returns the body of the first 2xx answer.
// Errors name the host and status, never a credential (keys travel in
// headers only).
func (o HTTPOptions) do(ctx context.Context, req request) ([]byte, error) {
	o = o.withDefaults()
	var lastErr error
	for attempt := 0; ; attempt++ {
		hr, err := http.NewRequestWithContext(ctx, req.method, req.url, bytes.NewReader(req.body))
		if err != nil {
			return nil, fmt.Errorf("build request: %w", err)
		}
		if req.body == nil {
			hr.Body, hr.GetBody, hr.ContentLength = http.NoBody, nil, 0
		}
		for k, v := range req.header {
			hr.Header[k] = v
		}
		hr.Header.Set("User-Agent", o.UserAgent)
		wait, waitSet := time.Duration(0), false
		resp, err := o.Client.Do(hr)
		switch {
		case err != nil:
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			lastErr = fmt.Errorf("%s %s: %w", req.method, hr.URL.Host, unwrapURLError(err))
		case resp.StatusCode >= 200 && resp.StatusCode < 300:
			defer resp.Body.Close()
			body, err := io.ReadAll(io.LimitReader(resp.Body, o.MaxBody+1))
			if err != nil {
				return nil, fmt.Errorf("read %s: %w", hr.URL.Host, err)
			}
			if int64(len(body)) > o.MaxBody {
				return nil, fmt.Errorf("read %s: response over %d bytes", hr.URL.Host, o.MaxBody)
			}
			return body, nil
		default:
			snippet, _ := io.ReadAll(io.LimitReader(resp.Body, 200))
			resp.Body.Close()
			lastErr = fmt.Errorf("%s %s: %w", req.method, hr.URL.Host, &StatusError{Code: resp.StatusCode, Snippet: strings.TrimSpace(string(snippet))})
			if !retryable(resp.StatusCode) {
				return nil, lastErr
			}
			if ra, ok := retryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
				if ra > o.MaxWait {
					return nil, fmt.Errorf("%w (retry after %v exceeds the %v cap)", lastErr, ra, o.MaxWait)
				}
				wait, waitSet = ra, true
			}
		}
		if attempt >= o.MaxRetries {
			return nil, fmt.Errorf("%w (gave up after %d attempts)", lastErr, attempt+1)
		}
		if !waitSet {
			wait = min(time.Second<<attempt, o.MaxWait)
		}
		if err := o.Wait(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// unwrapURLError drops *url.Error's "Get \"<url>\":" wrapper so a URL with a
// query never reaches a log line through an error.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// retryAfter parses a Retry-After header: delay seconds or an HTTP date.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if s, err := strconv.Atoi(v); err == nil && s >= 0 {
		return time.Duration(s) * time.Second, true
	}
	if t, err := http.ParseTime(v); err == nil {
		return max(t.Sub(now), 0), true
	}
	return 0, false
}
