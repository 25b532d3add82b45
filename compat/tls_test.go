package compat

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-github/v92/github"
)

// localCertificate writes a certificate for localhost and 127.0.0.1 that
// signs itself, as the openssl command of docs/operations.md makes, and its
// key to PEM files in a temporary directory. It returns their paths and a
// pool that trusts the certificate.
func localCertificate(t *testing.T) (certFile, keyFile string, roots *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	der, err := x509.CreateCertificate(rand.Reader, &x509.Certificate{
		SerialNumber:          big.NewInt(now.UnixNano()),
		NotBefore:             now.Add(-time.Hour),
		NotAfter:              now.Add(time.Hour),
		DNSNames:              []string{"localhost"},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:              x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		BasicConstraintsValid: true,
		IsCA:                  true,
	}, &x509.Certificate{SerialNumber: big.NewInt(now.UnixNano())}, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(certFile, certPEM, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	roots = x509.NewCertPool()
	if !roots.AppendCertsFromPEM(certPEM) {
		t.Fatal("the certificate just made does not parse")
	}
	return certFile, keyFile, roots
}

// TestGoGitHubOverHTTPS drives a server started with -tls-cert with
// go-github, whose http.Client trusts the server's certificate as
// docs/operations.md says: it lists, adds and lists again over HTTP/2.
func TestGoGitHubOverHTTPS(t *testing.T) {
	certFile, keyFile, roots := localCertificate(t)
	s := startServer(t, "-tls-cert", certFile, "-tls-key", keyFile)
	writer := s.client(t, writerToken, github.WithHTTPClient(&http.Client{Transport: &http.Transport{
		TLSClientConfig:   &tls.Config{RootCAs: roots},
		ForceAttemptHTTP2: true,
	}}))
	ctx := t.Context()
	overHTTP2 := func(op string, resp *github.Response, err error) {
		t.Helper()
		if err != nil {
			t.Fatalf("%s over HTTPS: %v", op, err)
		}
		if resp.Proto != "HTTP/2.0" {
			t.Errorf("%s answered over %s, want HTTP/2.0", op, resp.Proto)
		}
	}

	before, resp, err := listValues(ctx, writer, "octo-org", "hello-world", 3, nil)
	overHTTP2("list", resp, err)
	if len(before) != 0 {
		t.Errorf("octo-org/hello-world#3 has %d values before the write, want none", len(before))
	}

	added, resp, err := addValues(ctx, writer, "octo-org", "hello-world", 3, []*github.IssueRequestFieldValue{{FieldID: 2, Value: 8}})
	overHTTP2("add", resp, err)

	after, resp, err := listValues(ctx, writer, "octo-org", "hello-world", 3, nil)
	overHTTP2("list after the add", resp, err)
	if diff := cmp.Diff([]*github.IssueFieldValue{estimate(8)}, after, ignoreNodeID); diff != "" {
		t.Errorf("octo-org/hello-world#3 after adding Estimate 8 over HTTPS (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(added, after); diff != "" {
		t.Errorf("the add answered values that the list after it does not show (-add +list):\n%s", diff)
	}

	// A go-github client with the system's roots alone refuses the
	// certificate: trusting it is the client's choice.
	if _, _, err := listValues(ctx, s.client(t, writerToken), "octo-org", "hello-world", 3, nil); err == nil {
		t.Error("go-github without the certificate in its roots listed over HTTPS, want a certificate error")
	}
}
