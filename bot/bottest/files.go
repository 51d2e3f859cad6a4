package bottest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
	"strings"
)

// File is a file the fake received through files.getUploadURLExternal, the
// upload URL and files.completeUploadExternal.
type File struct {
	ID       string
	Name     string // the file name given to files.getUploadURLExternal
	Title    string
	Channel  string // where files.completeUploadExternal shared it; "" while unshared
	ThreadTS string
	Comment  string // initial_comment
	Data     []byte
	Shared   bool
}

// fileStore is the fake's file state; Slack embeds one.
type fileStore struct {
	seq   int
	files []*File
}

// Files returns the files shared in channel (every shared file for ""),
// in upload order.
func (s *Slack) Files(channel string) []File {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []File
	for _, f := range s.files.files {
		if f.Shared && (channel == "" || f.Channel == channel) {
			out = append(out, *f)
		}
	}
	return out
}

func (s *Slack) file(id string) *File {
	for _, f := range s.files.files {
		if f.ID == id {
			return f
		}
	}
	return nil
}

// filesMethod answers files.getUploadURLExternal and
// files.completeUploadExternal.
func (s *Slack) filesMethod(method string, c Call) any {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch method {
	case "files.getUploadURLExternal":
		s.files.seq++
		f := &File{ID: fmt.Sprintf("F%04d", s.files.seq), Name: c.Form.Get("filename")}
		s.files.files = append(s.files.files, f)
		return map[string]any{"ok": true, "upload_url": s.srv.URL + "/upload/" + f.ID, "file_id": f.ID}
	default: // files.completeUploadExternal
		var sums []struct {
			ID    string `json:"id"`
			Title string `json:"title"`
		}
		if err := json.Unmarshal([]byte(c.Form.Get("files")), &sums); err != nil {
			return map[string]any{"ok": false, "error": "invalid_arguments"}
		}
		var out []map[string]string
		for _, sum := range sums {
			f := s.file(sum.ID)
			if f == nil || f.Data == nil {
				return map[string]any{"ok": false, "error": "file_not_found"}
			}
			f.Title, f.Channel, f.ThreadTS, f.Comment, f.Shared = sum.Title, c.Form.Get("channel_id"), c.Form.Get("thread_ts"), c.Form.Get("initial_comment"), true
			out = append(out, map[string]string{"id": f.ID, "title": f.Title})
		}
		return map[string]any{"ok": true, "files": out}
	}
}

// serveUpload takes the bytes POSTed to an upload URL (multipart, field
// "file"), as files.slack.com does.
func (s *Slack) serveUpload(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	body, _ := io.ReadAll(r.Body)
	c := Call{Method: "upload", Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	rep, scripted := s.record(c)
	if scripted && (rep.Status >= 300 || rep.Body != "") {
		writeReply(w, rep, "")
		return
	}
	data, err := multipartFile(r.Header.Get("Content-Type"), body)
	s.mu.Lock()
	f := s.file(id)
	if f != nil && err == nil {
		f.Data = data
	}
	s.mu.Unlock()
	switch {
	case f == nil:
		http.Error(w, "no such upload", http.StatusNotFound)
	case err != nil:
		http.Error(w, err.Error(), http.StatusBadRequest)
	default:
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, "OK - "+fmt.Sprint(len(data)))
	}
}

func multipartFile(contentType string, body []byte) ([]byte, error) {
	mt, params, err := mime.ParseMediaType(contentType)
	if err != nil || !strings.HasPrefix(mt, "multipart/") {
		return body, nil // a raw POST of the bytes
	}
	mr := multipart.NewReader(bytes.NewReader(body), params["boundary"])
	for {
		p, err := mr.NextPart()
		if err != nil {
			return nil, fmt.Errorf("no file part: %w", err)
		}
		if p.FormName() == "file" {
			return io.ReadAll(p)
		}
	}
}
