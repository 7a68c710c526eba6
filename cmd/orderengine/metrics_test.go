package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/orderengine/orderengine/internal/buildinfo"
)

// family is one metric family of a scrape: its type and its samples'
// label sets.
type family struct {
	typ    string
	labels []map[string]string
}

var sampleRe = regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$`)
var labelRe = regexp.MustCompile(`([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"`)

// scrape reads /metrics and returns the orderengine_* families by name and
// the value of each unlabelled sample.
func scrape(t *testing.T, base string) (map[string]*family, map[string]float64) {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	fams, values := map[string]*family{}, map[string]float64{}
	sc := bufio.NewScanner(strings.NewReader(string(body)))
	for sc.Scan() {
		line := sc.Text()
		if f, ok := strings.CutPrefix(line, "# TYPE "); ok {
			name, typ, _ := strings.Cut(f, " ")
			if strings.HasPrefix(name, "orderengine_") {
				fams[name] = &family{typ: typ}
			}
			continue
		}
		m := sampleRe.FindStringSubmatch(line)
		if m == nil || !strings.HasPrefix(m[1], "orderengine_") {
			continue
		}
		name := m[1]
		for _, suffix := range []string{"_bucket", "_sum", "_count"} {
			if base, ok := strings.CutSuffix(name, suffix); ok && fams[base] != nil && fams[base].typ == "histogram" {
				name = base
			}
		}
		f := fams[name]
		if f == nil {
			t.Fatalf("sample %s without a TYPE line", line)
		}
		labels := map[string]string{}
		for _, l := range labelRe.FindAllStringSubmatch(m[2], -1) {
			labels[l[1]] = l[2]
		}
		f.labels = append(f.labels, labels)
		if m[2] == "" {
			v, _ := strconv.ParseFloat(m[3], 64)
			values[name] = v
		}
	}
	return fams, values
}

// TestMetricsMatchTheDocs runs serve on the dev chain, makes a refused
// submit and a read of an unknown order, waits for a trigger evaluation,
// and checks /metrics against docs/operations.md: every engine metric
// exported is documented and every documented one exported; counters end
// in _total and nothing else does; histograms carry a base unit; labels
// are the bounded ones (route templates, never a hash or an address).
func TestMetricsMatchTheDocs(t *testing.T) {
	dir := t.TempDir()
	r := startServe(t, dir)
	defer r.stop(t)
	base := "http://" + r.pub
	m := r.devKeyMatch(t)
	if m == nil {
		t.Fatalf("no dev key printed:\n%s", r.stdout.String())
	}
	key := m[1]
	if code := send(t, "POST", base+"/v1/orders", key, []byte(`{"order":{}}`)); code != 400 {
		t.Fatalf("refused submit: %d", code)
	}
	if code := get(t, base+"/v1/orders/0x"+strings.Repeat("ab", 32), key); code != 404 {
		t.Fatalf("unknown order: %d", code)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var fams map[string]*family
	for {
		var values map[string]float64
		fams, values = scrape(t, "http://"+r.adm) // http.metricsOnAdmin
		if values["orderengine_trigger_evaluations_total"] >= 1 && fams["orderengine_indexer_head_block"] != nil {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("no trigger evaluation and indexer metrics: %v", values)
		}
		time.Sleep(20 * time.Millisecond)
	}

	doc, err := os.ReadFile("../../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(string(doc), "<!-- metrics:begin -->")
	table, _, _ = strings.Cut(table, "<!-- metrics:end -->")
	documented := map[string]string{}
	for _, row := range regexp.MustCompile("(?m)^\\| `(orderengine_[a-z0-9_]+)` \\| ([a-z]+) \\|").FindAllStringSubmatch(table, -1) {
		documented[row[1]] = row[2]
	}
	if len(documented) == 0 {
		t.Fatal("no metrics table in docs/operations.md")
	}
	for name, f := range fams {
		if typ, ok := documented[name]; !ok || typ != f.typ {
			t.Errorf("exported %s (%s) is documented as %q", name, f.typ, typ)
		}
		if (f.typ == "counter") != strings.HasSuffix(name, "_total") {
			t.Errorf("%s is a %s: only counters end in _total, and every counter does", name, f.typ)
		}
		if f.typ == "histogram" && !strings.HasSuffix(name, "_seconds") && !strings.HasSuffix(name, "_bytes") {
			t.Errorf("histogram %s carries no base unit", name)
		}
		for _, labels := range f.labels {
			for l, v := range labels {
				switch l {
				case "method", "status", "code", "le":
				case "version", "commit", "goversion":
					if name != "orderengine_build_info" {
						t.Errorf("%s: unexpected label %s=%q", name, l, v)
					}
				case "route":
					if strings.Contains(v, "0x") || !(strings.HasPrefix(v, "/") || v == "unmatched" || v == "rejected") {
						t.Errorf("%s: route label %q is not a template", name, v)
					}
				default:
					t.Errorf("%s: unexpected label %s=%q", name, l, v)
				}
			}
		}
	}
	for name := range documented {
		if fams[name] == nil {
			t.Errorf("documented %s is not exported", name)
		}
	}
	b := buildinfo.Get()
	if bi := fams["orderengine_build_info"]; bi == nil || len(bi.labels) != 1 || bi.labels[0]["version"] != b.Version ||
		bi.labels[0]["commit"] != b.Commit || bi.labels[0]["goversion"] != b.GoVersion {
		t.Errorf("orderengine_build_info does not name the running build %+v: %+v", b, bi)
	}
	refused := false
	for _, l := range fams["orderengine_http_errors_total"].labels {
		refused = refused || (l["route"] == "/v1/orders" && l["method"] == "POST" && l["code"] != "")
	}
	if !refused {
		t.Errorf("the refused submit is not counted by code: %v", fams["orderengine_http_errors_total"].labels)
	}
}
