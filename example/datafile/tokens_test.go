package datafile

import (
	"context"
	"errors"
	"testing"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/example/internal/lookup"
)

// loadDemo returns the demo data, loaded.
func loadDemo(t *testing.T) *loaded {
	t.Helper()
	d, err := load(demoData)
	if err != nil {
		t.Fatalf("load(demo.json): %v", err)
	}
	return d
}

// permissionsIn returns the permissions of p in the repository that
// owner/name names in d.
func permissionsIn(t *testing.T, d *loaded, p *issuefields.Principal, owner, name string) issuefields.RepositoryPermissions {
	t.Helper()
	ctx := context.Background()
	repo, err := lookup.Repository(ctx, d.store, owner, name)
	if err != nil {
		t.Fatal(err)
	}
	perms, err := p.Permissions(ctx, repo)
	if err != nil {
		t.Fatalf("Permissions(%s/%s): %v", owner, name, err)
	}
	return perms
}

func TestVerifyTokenKnown(t *testing.T) {
	d := loadDemo(t)
	p, err := d.Tokens.VerifyToken(context.Background(), "demo-app-token")
	if err != nil {
		t.Fatalf("VerifyToken(demo-app-token): %v", err)
	}
	if p.Kind != issuefields.AppInstallationToken || p.Login != "demo-app[bot]" {
		t.Errorf("principal = %s %q, want app_installation \"demo-app[bot]\"", p.Kind, p.Login)
	}
	want := issuefields.RepositoryPermissions{Visible: true, Issues: issuefields.PermissionRead, PullRequests: issuefields.PermissionWrite, Push: true,
		RepositoryHooks: issuefields.PermissionNone}
	if got := permissionsIn(t, d, p, "Octo-Org", "ROADMAP"); got != want {
		t.Errorf("permissions in octo-org/roadmap = %+v, want %+v", got, want)
	}
	if got := permissionsIn(t, d, p, "octo-org", "handbook"); got != (issuefields.RepositoryPermissions{}) {
		t.Errorf("permissions in octo-org/handbook, which the token does not list = %+v, want none", got)
	}
}

func TestVerifyTokenRefused(t *testing.T) {
	d := loadDemo(t)
	for _, token := range []string{"demo-expired-token", "no-such-token", "demo-writer-token ", "DEMO-WRITER-TOKEN"} {
		p, err := d.Tokens.VerifyToken(context.Background(), token)
		if !errors.Is(err, issuefields.ErrBadCredentials) {
			t.Errorf("VerifyToken(%q) = %+v, %v; want ErrBadCredentials", token, p, err)
		}
	}
}

func TestVerifyTokenNotYetExpired(t *testing.T) {
	d, err := load([]byte(`{"tokens": [{"token": "t", "kind": "app_user", "login": "l", "expires_at": "2999-01-01T00:00:00Z"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.Tokens.VerifyToken(context.Background(), "t"); err != nil {
		t.Errorf("VerifyToken of a token that expires in 2999: %v", err)
	}
}

func TestPermissionsFollowRenames(t *testing.T) {
	d := loadDemo(t)
	p, err := d.Tokens.VerifyToken(context.Background(), "demo-writer-token")
	if err != nil {
		t.Fatal(err)
	}
	if err := d.store.RenameRepository("octo-org", "hello-world", "hello-universe"); err != nil {
		t.Fatal(err)
	}
	if err := d.store.TransferRepository("octo-org", "hello-universe", "octocat"); err != nil {
		t.Fatal(err)
	}
	want := issuefields.RepositoryPermissions{Visible: true, Issues: issuefields.PermissionWrite, PullRequests: issuefields.PermissionNone, Push: true,
		RepositoryHooks: issuefields.PermissionWrite}
	if got := permissionsIn(t, d, p, "octocat", "hello-universe"); got != want {
		t.Errorf("permissions in octocat/hello-universe, formerly octo-org/hello-world = %+v, want %+v", got, want)
	}
	// The demo data gives the token octo-org/handbook, which was called
	// octo-org/docs before.
	if got := permissionsIn(t, d, p, "octo-org", "docs"); got != want {
		t.Errorf("permissions in octo-org/docs = %+v, want %+v", got, want)
	}
}
