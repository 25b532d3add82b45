package reponame

import "testing"

func TestSame(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
	}{
		{"Octo-Org", "octo-org", true},
		{"HELLO-world", "hello-WORLD", true},
		{"hello", "hello-world", false},
		{"Ärger", "ärger", true},
	} {
		if got := Same(tt.a, tt.b); got != tt.want {
			t.Errorf("Same(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestHasGitSuffix(t *testing.T) {
	for name, want := range map[string]bool{
		"hello-world.git": true, "hello.GIT": true, ".git": true,
		"hello-world": false, "git": false, "hello.gi": false, "hello.git.x": false,
	} {
		if got := HasGitSuffix(name); got != want {
			t.Errorf("HasGitSuffix(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestCheck(t *testing.T) {
	for _, tt := range []struct{ owner, name, want string }{
		{"octo-org", "hello-world", ""},
		{"", "hello-world", `repository "/hello-world": bad owner ""`},
		{"octo/org", "hello-world", `repository "octo/org/hello-world": bad owner "octo/org"`},
		{"octo-org", "", `repository "octo-org/": bad name ""`},
		{"octo-org", "a/b", `repository "octo-org/a/b": bad name "a/b"`},
	} {
		err := Check(tt.owner, tt.name)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want {
			t.Errorf("Check(%q, %q) = %q, want %q", tt.owner, tt.name, got, tt.want)
		}
	}
}
