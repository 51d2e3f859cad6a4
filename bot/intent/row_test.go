package intent

import (
	"slices"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	tests := []struct {
		name string
		rows []Row
		want string // "" when the table is fine, else a part of the error
	}{
		{"two intents, their own words", []Row{{ID: "fit", Words: []string{"fit"}}, {ID: "cost", Words: []string{"cost"}}}, ""},
		{"an empty id", []Row{{Words: []string{"x"}}}, "no id"},
		{"an id twice", []Row{{ID: "fit"}, {ID: "fit"}}, `"fit" twice`},
		{"one word, two intents", []Row{{ID: "fit", Words: []string{"vram"}}, {ID: "cost", Words: []string{"vram"}}}, "/gpu vram runs both"},
		{"a write with buttons", []Row{{ID: "spend", Writes: true, Buttons: []Button{ButtonMore}}}, `"spend" writes and offers buttons`},
	}
	for _, tt := range tests {
		err := Check(tt.rows)
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: Check = %v, want %q", tt.name, err, tt.want)
		}
	}
}

func TestFill(t *testing.T) {
	lex := func(id ID) Lexical {
		return map[ID]Lexical{
			"watch":  {Words: []string{"watch", "盯价"}, Sub: map[string][]string{"off": {"off", "取消"}}},
			"fit":    {Words: []string{"fit"}, Routable: true, Settings: []string{"batch", "seq"}},
			"listen": {Words: []string{"listen", "监听"}},
		}[id]
	}
	rows := Fill([]Row{{ID: "watch"}, {ID: "fit"}, {ID: "listen", Words: []string{"listen"}}}, lex)
	if got := rows[0]; !slices.Equal(got.Words, []string{"watch", "盯价"}) || !slices.Equal(got.Sub["off"], []string{"off", "取消"}) || got.Routable {
		t.Errorf("watch = %+v, want the lexicon's words and sub-words, not routable", got)
	}
	if got := rows[1]; !got.Routable || !slices.Equal(got.Settings, []string{"batch", "seq"}) {
		t.Errorf("fit = %+v, want routable with settings batch, seq", got)
	}
	if got := rows[2]; !slices.Equal(got.Words, []string{"listen"}) {
		t.Errorf("listen = %v, want its own words kept", got.Words)
	}
	if ex := Examples([]Row{{ID: "fit", Example: "/gpu fit 13b"}, {ID: "bill"}}); len(ex) != 1 || ex["fit"] != "/gpu fit 13b" {
		t.Errorf("Examples = %v, want only fit's", ex)
	}
}
