package contracts

import (
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/ethereum/go-ethereum/accounts/abi"

	"github.com/orderengine/orderengine/contracts/bindings/servicerouter"
)

// section returns the text of docs/protocol.md from the heading to the next
// heading of the same or a higher level.
func section(t *testing.T, doc, heading string) string {
	t.Helper()
	i := strings.Index(doc, "\n"+heading+"\n")
	if i < 0 {
		t.Fatalf("docs/protocol.md has no %q", heading)
	}
	rest := doc[i+len(heading)+2:]
	level := strings.Count(strings.Fields(heading)[0], "#")
	for _, l := range regexp.MustCompile(`(?m)^#+ `).FindAllStringIndex(rest, -1) {
		if l[1]-l[0]-1 <= level {
			return rest[:l[0]]
		}
	}
	return rest
}

func routerABI(t *testing.T) *abi.ABI {
	t.Helper()
	a, err := servicerouter.ServiceRouterMetaData.ParseABI()
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func readProtocolDoc(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("../docs/protocol.md")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestRouterErrorsMatchProtocolDoc: the router's custom errors are exactly
// the names docs/protocol.md lists (what order.failed reports as revertName).
func TestRouterErrorsMatchProtocolDoc(t *testing.T) {
	text := section(t, readProtocolDoc(t), "### Custom errors")
	documented := map[string]bool{}
	for _, m := range regexp.MustCompile("`([A-Z][A-Za-z]+)(\\([^`]*\\))?`").FindAllStringSubmatch(text, -1) {
		documented[m[1]] = true
	}
	a := routerABI(t)
	var missing, extra []string
	for name := range a.Errors {
		if !documented[name] {
			extra = append(extra, name)
		}
	}
	for name := range documented {
		if _, ok := a.Errors[name]; !ok {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing)+len(extra) > 0 {
		t.Errorf("documented but not in the router ABI: %v; in the ABI but not documented: %v", missing, extra)
	}
	if len(documented) < 25 {
		t.Errorf("only %d errors parsed from the doc", len(documented))
	}
	if sig := a.Errors["CallFailed"].Sig; sig != "CallFailed(uint256,bytes)" {
		t.Errorf("CallFailed signature %s", sig)
	}
}

// TestRouterEventsMatchProtocolDoc: every event in the doc's Events block
// has the same canonical signature and indexed fields in the ABI.
func TestRouterEventsMatchProtocolDoc(t *testing.T) {
	text := section(t, readProtocolDoc(t), "### Events")
	// Join the wrapped declarations of the code block into one line each.
	flat := strings.Join(strings.Fields(text), " ")
	decls := regexp.MustCompile(`event (\w+)\(([^)]*)\);`).FindAllStringSubmatch(flat, -1)
	if len(decls) != 5 {
		t.Fatalf("parsed %d events from the doc, want 5", len(decls))
	}
	a := routerABI(t)
	for _, d := range decls {
		ev, ok := a.Events[d[1]]
		if !ok {
			t.Errorf("event %s is not in the ABI", d[1])
			continue
		}
		params := strings.Split(d[2], ",")
		if len(params) != len(ev.Inputs) {
			t.Errorf("%s: doc has %d fields, ABI %d", d[1], len(params), len(ev.Inputs))
			continue
		}
		for i, p := range params {
			f := strings.Fields(p)
			indexed := len(f) == 3 && f[1] == "indexed"
			in := ev.Inputs[i]
			if f[0] != in.Type.String() || f[len(f)-1] != in.Name || indexed != in.Indexed {
				t.Errorf("%s field %d: doc %q, ABI %s %s indexed=%v", d[1], i, p, in.Type, in.Name, in.Indexed)
			}
		}
	}
}

// TestRouterFunctionsMatchProtocolDoc: every function of the doc's router
// interface exists in the ABI with the documented parameter count.
func TestRouterFunctionsMatchProtocolDoc(t *testing.T) {
	text := section(t, readProtocolDoc(t), "## Router interface (`ServiceRouter`)")
	flat := strings.Join(strings.Fields(text), " ")
	a := routerABI(t)
	n := 0
	for _, m := range regexp.MustCompile(`function (\w+)\(([^)]*)\)`).FindAllStringSubmatch(flat, -1) {
		n++
		method, ok := a.Methods[m[1]]
		if !ok {
			t.Errorf("function %s is not in the ABI", m[1])
			continue
		}
		count := 0
		if strings.TrimSpace(m[2]) != "" {
			count = len(strings.Split(m[2], ","))
		}
		if count != len(method.Inputs) {
			t.Errorf("%s: doc has %d parameters, ABI %d", m[1], count, len(method.Inputs))
		}
	}
	if n < 10 {
		t.Errorf("parsed only %d functions", n)
	}
}
