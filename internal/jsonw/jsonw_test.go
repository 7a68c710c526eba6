package jsonw

import (
	"encoding/json"
	"math/big"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/holiman/uint256"
)

func TestStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `quote"`, `back\slash`, "<&>", "tab\t", "é", "\x00", "0xAbC"} {
		want, _ := json.Marshal(s)
		if got := String(nil, s); string(got) != string(want) {
			t.Errorf("String(%q) = %s, want %s", s, got, want)
		}
	}
}

func TestTimeMatchesEncodingJSON(t *testing.T) {
	for _, tm := range []time.Time{time.Unix(0, 0).UTC(), time.Unix(1_700_000_000, 123456789).UTC(), time.Date(2026, 11, 26, 1, 2, 3, 0, time.UTC)} {
		want, _ := json.Marshal(tm)
		got, err := Time(nil, tm)
		if err != nil || string(got) != string(want) {
			t.Errorf("Time(%v) = %s, %v; want %s", tm, got, err, want)
		}
	}
	if _, err := Time(nil, time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)); err == nil {
		t.Error("a year past 9999 encoded; encoding/json refuses it")
	}
}

func TestDecMatchesBigInt(t *testing.T) {
	max := new(uint256.Int).SetAllOne()
	cases := []*uint256.Int{uint256.NewInt(0), uint256.NewInt(1), uint256.NewInt(^uint64(0)), max,
		new(uint256.Int).Lsh(uint256.NewInt(1), 64), new(uint256.Int).Exp(uint256.NewInt(10), uint256.NewInt(19)),
		new(uint256.Int).Exp(uint256.NewInt(10), uint256.NewInt(38)), new(uint256.Int).Exp(uint256.NewInt(10), uint256.NewInt(77))}
	r := rand.New(rand.NewPCG(1, 2))
	for range 2000 {
		var u uint256.Int
		u[0], u[1], u[2], u[3] = r.Uint64(), r.Uint64(), r.Uint64(), r.Uint64()
		u.Rsh(&u, uint(r.IntN(256)))
		cases = append(cases, &u)
	}
	for _, u := range cases {
		want := `"` + u.ToBig().String() + `"`
		if got := Dec(nil, u); string(got) != want {
			t.Fatalf("Dec(%x) = %s, want %s", u.Bytes(), got, want)
		}
	}
	if got := AppendDec(nil, uint256.MustFromBig(big.NewInt(42))); string(got) != "42" {
		t.Errorf("AppendDec(42) = %s", got)
	}
}

func TestHex(t *testing.T) {
	if got := Hex(nil, []byte{0xab, 0x01}); string(got) != `"0xab01"` {
		t.Errorf("Hex = %s", got)
	}
}

func BenchmarkDecMakerTraits(b *testing.B) {
	u, _ := uint256.FromDecimal("115792089237316195423570985008687907853269984665640564039457584007913129639935")
	buf := make([]byte, 0, 128)
	b.ReportAllocs()
	for b.Loop() {
		buf = AppendDec(buf[:0], u)
	}
}
