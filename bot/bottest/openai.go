package bottest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	openai "github.com/sashabaranov/go-openai"
)

// OpenAIReply scripts one answer of the fake OpenAI-compatible server.
type OpenAIReply struct {
	Text       string        // the assistant message content of a 200 answer
	Status     int           // HTTP status; 0 means 200. Non-2xx answers carry an OpenAI error body
	RetryAfter string        // sent as Retry-After (seconds or an HTTP date), e.g. with Status 429
	Delay      time.Duration // wait before answering; cut short if the client gives up
	Hang       bool          // never answer: return only when the client gives up or the test ends
	Body       string        // raw body sent as is with Status (malformed JSON, say); overrides Text
}

// OpenAIRequest is one chat completion request the fake received.
type OpenAIRequest struct {
	Header http.Header
	Body   []byte                       // the raw JSON, to assert which fields were sent
	Chat   openai.ChatCompletionRequest // Body decoded; zero if it did not decode
}

// Content returns the concatenated content of the messages with role
// ("system", "user", "assistant").
func (r OpenAIRequest) Content(role string) string {
	var out string
	for _, m := range r.Chat.Messages {
		if m.Role == role {
			if out != "" {
				out += "\n"
			}
			out += m.Content
		}
	}
	return out
}

// OpenAI is a fake OpenAI-compatible server answering POST
// /v1/chat/completions on its own mux. Point a client at BaseURL:
//
//	cfg := openai.DefaultConfig("test-key")
//	cfg.BaseURL = fake.BaseURL() // srv.URL + "/v1"
//
// Replies come from the Script queue, then from the default; with neither
// it answers 500. It records every request.
type OpenAI struct {
	srv  *httptest.Server
	done chan struct{}

	mu       sync.Mutex
	script   []OpenAIReply
	fallback *OpenAIReply
	reqs     []OpenAIRequest
}

// NewOpenAI starts the fake; it stops when the test ends, releasing any
// request it holds.
func NewOpenAI(t testing.TB) *OpenAI {
	t.Helper()
	f := &OpenAI{done: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", f.serveChat)
	f.srv = httptest.NewServer(mux)
	t.Cleanup(func() {
		close(f.done)
		f.srv.CloseClientConnections()
		f.srv.Close()
	})
	return f
}

// BaseURL is the value for ClientConfig.BaseURL and OPENAI_BASE_URL.
func (f *OpenAI) BaseURL() string { return f.srv.URL + "/v1" }

// Script queues replies, used one per request in order.
func (f *OpenAI) Script(replies ...OpenAIReply) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.script = append(f.script, replies...)
}

// SetDefault sets the reply used once the script is used up.
func (f *OpenAI) SetDefault(r OpenAIReply) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.fallback = &r
}

// Requests returns the requests received so far.
func (f *OpenAI) Requests() []OpenAIRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]OpenAIRequest(nil), f.reqs...)
}

func (f *OpenAI) next(req OpenAIRequest) (OpenAIReply, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.reqs = append(f.reqs, req)
	if len(f.script) > 0 {
		r := f.script[0]
		f.script = f.script[1:]
		return r, true
	}
	if f.fallback != nil {
		return *f.fallback, true
	}
	return OpenAIReply{}, false
}

func (f *OpenAI) serveChat(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	req := OpenAIRequest{Header: r.Header.Clone(), Body: body}
	_ = json.Unmarshal(body, &req.Chat)
	rep, ok := f.next(req)
	if !ok {
		openAIError(w, http.StatusInternalServerError, "", "bottest: no reply scripted")
		return
	}
	switch {
	case rep.Hang:
		select {
		case <-r.Context().Done():
		case <-f.done:
		}
		return
	case rep.Delay > 0:
		t := time.NewTimer(rep.Delay)
		defer t.Stop()
		select {
		case <-t.C:
		case <-r.Context().Done():
			return
		case <-f.done:
			return
		}
	}
	status := rep.Status
	if status == 0 {
		status = http.StatusOK
	}
	if rep.RetryAfter != "" {
		w.Header().Set("Retry-After", rep.RetryAfter)
	}
	switch {
	case rep.Body != "":
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, rep.Body)
	case status < 200 || status > 299:
		openAIError(w, status, rep.RetryAfter, fmt.Sprintf("bottest: scripted status %d", status))
	default:
		resp := openai.ChatCompletionResponse{
			ID: fmt.Sprintf("chatcmpl-bottest-%d", len(f.Requests())), Object: "chat.completion",
			Created: 1700000000, Model: req.Chat.Model,
			Choices: []openai.ChatCompletionChoice{{
				Index:        0,
				Message:      openai.ChatCompletionMessage{Role: openai.ChatMessageRoleAssistant, Content: rep.Text},
				FinishReason: openai.FinishReasonStop,
			}},
			Usage: openai.Usage{PromptTokens: len(body) / 4, CompletionTokens: len(rep.Text) / 4, TotalTokens: (len(body) + len(rep.Text)) / 4},
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(resp)
	}
}

// openAIError writes an error in the OpenAI shape.
func openAIError(w http.ResponseWriter, status int, retryAfter, msg string) {
	typ := "server_error"
	if status == http.StatusTooManyRequests {
		typ = "rate_limit_exceeded"
	}
	if retryAfter != "" {
		w.Header().Set("Retry-After", retryAfter)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"error": map[string]any{"message": msg, "type": typ, "code": nil},
	})
}
