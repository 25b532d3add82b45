package server

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// selfSigned writes a self-signed certificate for localhost and 127.0.0.1,
// and its key, to PEM files in a temporary directory, and returns their
// paths and the certificate.
func selfSigned(t *testing.T) (certFile, keyFile string, cert *x509.Certificate) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	template := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "localhost"},
		NotBefore:             time.Now().Add(-time.Hour),
		NotAfter:              time.Now().Add(24 * time.Hour),
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	if cert, err = x509.ParseCertificate(der); err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	for file, block := range map[string]*pem.Block{
		certFile: {Type: "CERTIFICATE", Bytes: der},
		keyFile:  {Type: "PRIVATE KEY", Bytes: keyDER},
	} {
		if err := os.WriteFile(file, pem.EncodeToMemory(block), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return certFile, keyFile, cert
}

func TestHTTPSAndHTTP2(t *testing.T) {
	certFile, keyFile, cert := selfSigned(t)
	s := startServer(t, "-tls-cert", certFile, "-tls-key", keyFile,
		"-webhook", "http://127.0.0.1:9/hook", "-webhook-secret", "s3cret")
	if !strings.HasPrefix(s.base, "https://") {
		t.Fatalf("listening on %s, want an https:// URL", s.base)
	}
	roots := x509.NewCertPool()
	roots.AddCert(cert)
	client := &http.Client{Transport: &http.Transport{
		TLSClientConfig:   &tls.Config{RootCAs: roots},
		ForceAttemptHTTP2: true,
	}}
	get := func(url string) string {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, url, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer demo-writer-token")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK || resp.ProtoMajor != 2 {
			t.Errorf("GET %s = %d over %s (%v), want 200 over HTTP/2", url, resp.StatusCode, resp.Proto, err)
		}
		return string(body)
	}
	url := s.base + "repos/octo-org/hello-world/issues/1/issue-field-values"
	if body := get(url); !strings.Contains(body, `"issue_field_name":"Priority"`) {
		t.Errorf("GET %s = %s, want the values", url, body)
	}
	// The URLs that the server writes of itself are https:// too.
	if body := get(s.base + "orgs/octo-org/hooks"); !strings.Contains(body, `"url":"`+s.base+"orgs/octo-org/hooks/") {
		t.Errorf("GET %sorgs/octo-org/hooks = %s, want the hook's url under %s", s.base, body, s.base)
	}

	// The client that trusts the system's roots alone refuses the
	// certificate: the server serves the one it was given.
	if _, err := http.Get(url); err == nil {
		t.Errorf("GET %s with the system's roots succeeded, want a certificate error", url)
	}
}

// TestStartUpCurlCommandsUseHTTPS runs the first curl command of the
// start-up message of a server with -tls-cert: it trusts the certificate
// and gets its answer over HTTPS and HTTP/2.
func TestStartUpCurlCommandsUseHTTPS(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil && os.Getenv("CI") != "" {
		t.Fatal("no curl on this machine, and CI runs every test: .ci/run installs it")
	}
	if err != nil {
		t.Skip("skipped: no curl on this machine")
	}
	certFile, keyFile, _ := selfSigned(t)
	s := startServer(t, "-tls-cert", certFile, "-tls-key", keyFile)
	var first string
	for _, line := range s.message {
		if cmd, ok := strings.CutPrefix(line, "  curl "); ok {
			first = cmd
			break
		}
	}
	if !strings.Contains(first, "--cacert '"+certFile+"'") || !strings.Contains(first, "'"+s.base) {
		t.Fatalf("first curl command %q, want one to %s that trusts %s", first, s.base, certFile)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "sh", "-c", curl+` -w '\n%{http_code} HTTP/%{http_version}' `+first).Output()
	body, status, _ := cutLast(string(out), "\n")
	if err != nil || status != "200 HTTP/2" || !strings.HasPrefix(body, "[{") {
		t.Errorf("curl %s\n= %s (%v), want 200 over HTTP/2 and the values", first, out, err)
	}
}

func TestBadTLSFlags(t *testing.T) {
	certFile, keyFile, _ := selfSigned(t)
	_, otherKey, _ := selfSigned(t)
	missing := filepath.Join(t.TempDir(), "missing.pem")
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-tls-cert", certFile}, "-tls-cert and -tls-key: give both, the certificate and its private key, or neither"},
		{[]string{"-tls-key", keyFile}, "-tls-cert and -tls-key: give both, the certificate and its private key, or neither"},
		{[]string{"-tls-cert", missing, "-tls-key", keyFile}, "-tls-cert " + missing + " and -tls-key " + keyFile + ": open " + missing + ": no such file or directory"},
		{[]string{"-tls-cert", certFile, "-tls-key", otherKey}, "-tls-cert " + certFile + " and -tls-key " + otherKey + ": tls: private key does not match public key"},
		{[]string{"-tls-cert", keyFile, "-tls-key", keyFile}, "-tls-cert " + keyFile + " and -tls-key " + keyFile + ": tls: "},
	} {
		err := run(context.Background(), append([]string{"-addr", "127.0.0.1:0"}, tt.args...), io.Discard, io.Discard)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("run(%q) = %v, want an error that begins %s", tt.args, err, tt.want)
		}
	}
}

// opensslCommand matches the openssl command of docs/operations.md that
// makes a local certificate, with its continuation lines.
var opensslCommand = regexp.MustCompile(`(?m)^openssl req (?:[^\n]*\\\n)*[^\n]*$`)

// TestDocumentedCertificate makes a certificate with the openssl command of
// docs/operations.md, and serves HTTPS with it to a client that trusts it.
func TestDocumentedCertificate(t *testing.T) {
	if _, err := exec.LookPath("openssl"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("no openssl on this machine, and CI runs every test: .ci/run installs it")
		}
		t.Skip("skipped: no openssl on this machine")
	}
	doc, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	command := opensslCommand.FindString(string(doc))
	if command == "" {
		t.Fatal("docs/operations.md shows no openssl req command")
	}
	dir := t.TempDir()
	openssl := exec.Command("sh", "-c", command)
	openssl.Dir = dir
	if out, err := openssl.CombinedOutput(); err != nil {
		t.Fatalf("%s\n= %v\n%s", command, err, out)
	}
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	pemCert, err := os.ReadFile(certFile)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pemCert) {
		t.Fatalf("%s holds no certificate", certFile)
	}
	s := startServer(t, "-tls-cert", certFile, "-tls-key", keyFile)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: roots}, ForceAttemptHTTP2: true}}
	for _, base := range []string{s.base, strings.Replace(s.base, "127.0.0.1", "localhost", 1)} {
		resp, err := client.Get(base + "repos/octo-org/hello-world/issues/1/issue-field-values")
		if err != nil {
			t.Errorf("GET %s with the documented certificate: %v", base, err)
			continue
		}
		resp.Body.Close()
		if resp.ProtoMajor != 2 || resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s = %d over %s, want 200 over HTTP/2", base, resp.StatusCode, resp.Proto)
		}
	}
}
