package orderbook

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/asynkron/protoactor-go/actor"
)

func entry(t *testing.T, n int, price string) *Entry {
	t.Helper()
	e, err := NewEntry(Entry{OrderHash: fmt.Sprintf("0x%064x", n), TriggerPrice: price, Status: "pending"})
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// prices pages through a book two at a time.
func prices(t *testing.T, b *Books, pair string) string {
	t.Helper()
	var out []string
	var after *Key
	for {
		p, err := b.Page(context.Background(), pair, 2, after)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range p.Entries {
			out = append(out, e.TriggerPrice)
		}
		if p.Next == nil {
			return strings.Join(out, ",")
		}
		k, err := ParseCursor(p.Next.Cursor())
		if err != nil {
			t.Fatal(err)
		}
		after = &k
	}
}

func TestBookOrderUpdatesAndPages(t *testing.T) {
	system := actor.NewActorSystem()
	defer system.Shutdown()
	b := New(system, slog.New(slog.DiscardHandler), 0)
	if got := prices(t, b, "none"); got != "" {
		t.Fatalf("unknown pair: %q", got)
	}
	for i, p := range []string{"30", "10", "50", "20", "40"} {
		b.Upsert("p", entry(t, i+1, p))
	}
	b.Upsert("p", entry(t, 6, "20")) // equal price: ordered by hash after order 4
	if got := prices(t, b, "p"); got != "10,20,20,30,40,50" {
		t.Fatalf("book %s", got)
	}
	b.Upsert("p", entry(t, 1, "60")) // a price change moves the order
	b.Remove("p", entry(t, 3, "50").hash)
	b.Remove("p", entry(t, 99, "1").hash) // unknown: ignored
	if got := prices(t, b, "p"); got != "10,20,20,40,60" {
		t.Fatalf("after updates %s", got)
	}
	if _, err := ParseCursor("zz"); err == nil {
		t.Fatal("bad cursor accepted")
	}
}
