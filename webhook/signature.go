package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// signaturePrefix starts the value of the X-<Vendor>-Signature-256 header.
const signaturePrefix = "sha256="

// Sign returns the value of the X-<Vendor>-Signature-256 header for body
// under secret: "sha256=" and the lowercase hex of the HMAC-SHA256 of body
// keyed with secret.
func Sign(secret, body []byte) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write(body)
	return signaturePrefix + hex.EncodeToString(mac.Sum(nil))
}

// Verify reports whether signature, the value of the X-<Vendor>-Signature-256
// header, is the signature of body under secret. It compares in constant
// time, and it is false for an empty secret, which no Notifier signs with,
// and for a signature in any other form than Sign's (hex digits in either
// case are accepted).
func Verify(secret, body []byte, signature string) bool {
	if len(secret) == 0 {
		return false
	}
	hexSum, ok := strings.CutPrefix(signature, signaturePrefix)
	if !ok {
		return false
	}
	got, err := hex.DecodeString(hexSum)
	if err != nil || len(got) != sha256.Size {
		return false
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write(body)
	return hmac.Equal(got, mac.Sum(nil))
}
