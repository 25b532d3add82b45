package issuefields

import (
	"encoding/json"
	"math/big"
	"strconv"
	"strings"
	"testing"
)

// FuzzBeyondExactIntegers checks that beyondExactIntegers, which reads a
// number's digits itself, agrees with math/big's exact reading of it on
// every JSON number that fits a float64: its integer part is beyond ±2^53
// exactly when big.Rat says so.
func FuzzBeyondExactIntegers(f *testing.F) {
	for _, n := range []string{
		"0", "-0", "1", "0.5", "1e15", "9007199254740991", "9007199254740992", "-9007199254740992",
		"9007199254740992.5", "9007199254740992.9999999", "9007199254740993", "-9007199254740993",
		"9007199254740993.0", "9.007199254740993e15", "9.007199254740992e+15", "90071992547409930e-1",
		"0.0000009007199254740993e22", "9007199254740993" + strings.Repeat("0", 500) + "e-500",
		"9007199254740992" + strings.Repeat("9", 500) + "e-500", "9007199254740994", "1e16", "1e300", "-1e300",
		"1.7976931348623157e308", "4.9e-324", "0.0e99999999999999999999",
	} {
		f.Add(n)
	}
	limit := new(big.Rat).SetInt64(maxExactInteger + 1)
	f.Fuzz(func(t *testing.T, raw string) {
		if len(raw) > 2000 || !json.Valid([]byte(raw)) || raw[0] != '-' && (raw[0] < '0' || raw[0] > '9') {
			return // not a number, or too long for the exact reading to be quick
		}
		n, err := strconv.ParseFloat(raw, 64)
		if err != nil {
			return // refused as out of range before
		}
		exact, ok := new(big.Rat).SetString(raw)
		if !ok {
			return // an exponent too large for big.Rat
		}
		want := exact.Abs(exact).Cmp(limit) >= 0
		if got := beyondExactIntegers([]byte(raw), n); got != want {
			t.Errorf("beyondExactIntegers(%s) = %v, want %v", raw, got, want)
		}
	})
}
