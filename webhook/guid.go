package webhook

import (
	"crypto/rand"
	"encoding/hex"
)

// newGUID returns a random version 4 UUID in its usual text form, such as
// 72d3162e-cc78-11e3-81ab-4c9367dc0958: the form of GitHub's
// X-GitHub-Delivery.
func newGUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])  // never returns an error
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // RFC 9562 variant
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:32]
}
