package issuefields

import (
	"path"
	"testing"
)

// muxCleanPath is the path that http.ServeMux redirects p to, from its
// cleanPath: p is served as it is only when this returns p.
func muxCleanPath(p string) string {
	if p == "" {
		return "/"
	}
	if p[0] != '/' {
		p = "/" + p
	}
	np := path.Clean(p)
	if p[len(p)-1] == '/' && np != "/" {
		np += "/"
	}
	return np
}

// FuzzIsCleanPath checks that isCleanPath agrees with path.Clean, as
// http.ServeMux applies it. Every request pays for the check, and
// isCleanPath takes about half of path.Clean's time (BenchmarkIsCleanPath).
func FuzzIsCleanPath(f *testing.F) {
	for _, p := range []string{
		"", "/", "//", "/.", "/..", "/a", "/a/", "/a//b", "/a/./b", "/a/../b", "/a/b/.", "/a/b/..",
		"a/b", "/.a", "/..a/", "/a.", "/repos/o/r/issues/1/issue-field-values",
		"/repos/o/r/issues/1/issue-field-values/", "/repos/o/r/issues/1/issue-field-values/2",
	} {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		want := muxCleanPath(p) == p
		if got := isCleanPath(p); got != want {
			t.Errorf("isCleanPath(%q) = %v; path.Clean gives %q", p, got, muxCleanPath(p))
		}
	})
}

// BenchmarkIsCleanPath compares isCleanPath with the path.Clean test it
// stands for, on the path of a list.
func BenchmarkIsCleanPath(b *testing.B) {
	const p = "/repos/octo-org/hello-world/issues/1347/issue-field-values"
	b.Run("isCleanPath", func(b *testing.B) {
		for b.Loop() {
			if !isCleanPath(p) {
				b.Fatal("not clean")
			}
		}
	})
	b.Run("path.Clean", func(b *testing.B) {
		for b.Loop() {
			if muxCleanPath(p) != p {
				b.Fatal("not clean")
			}
		}
	})
}
