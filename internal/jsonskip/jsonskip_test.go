package jsonskip

import "testing"

func TestValue(t *testing.T) {
	for _, tt := range []struct {
		data string
		want string // the value that starts at 0
	}{
		{`"a" , 1`, `"a"`},
		{`"a\"b" ]`, `"a\"b"`},
		{`"a\\" ]`, `"a\\"`},
		{`"a\\\"b"}`, `"a\\\"b"`},
		{`{"k": ["}", {"x": "]"}], "j": 2} ,`, `{"k": ["}", {"x": "]"}], "j": 2}`},
		{`[1, [2, [3]]]]`, `[1, [2, [3]]]`},
		{`-1.5e3,`, `-1.5e3`},
		{"true\n", `true`},
		{`null}`, `null`},
		{`"unterminated`, `"unterminated`},
	} {
		if got := tt.data[:Value([]byte(tt.data), 0)]; got != tt.want {
			t.Errorf("Value(%s) ends after %s, want %s", tt.data, got, tt.want)
		}
	}
}

func TestSpace(t *testing.T) {
	if got := Space([]byte(" \t\r\n x"), 0); got != 5 {
		t.Errorf("Space = %d, want 5", got)
	}
	if got := Space([]byte("   "), 1); got != 3 {
		t.Errorf("Space of all space = %d, want 3", got)
	}
}
