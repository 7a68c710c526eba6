package web_test

import (
	"encoding/json"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/orderengine/orderengine/app/apptest"
)

// docsSeen is what the docs scenario saw on the page.
type docsSeen struct {
	Title      string
	Tags       []string
	Operations []renderedOp
	Webhooks   []renderedOp
	ErrorCodes []struct {
		Code, Status string
	}
	Schemas       []string
	SubmitExample string
	LoadStatus    string

	FirstTab, AfterSkip string
	FilterStatus        string
	Filtered            []string
	TocTarget           struct {
		Hash, Focused string
		InView        bool
	}
	RouteSchemaProps []string
	HashLoad         struct {
		Focused       string
		InView        bool
		ConsoleErrors []string
	}
	NarrowTocOpen bool
	ErrorsShot    string
	ErrorsConsole []string
}

type renderedOp struct {
	Anchor, Method, Path, Summary, Bucket, Auth string
	Params                                      []string
}

// openAPIDoc is the part of the served document the test compares with.
type openAPIDoc struct {
	Info  struct{ Title string }
	Tags  []struct{ Name string }
	Paths map[string]map[string]struct {
		OperationID string `json:"operationId"`
		Summary     string
		Tags        []string
		Bucket      string `json:"x-rate-limit-bucket"`
		Security    []map[string][]string
		Parameters  []struct{ Name string }
		RequestBody struct {
			Content map[string]struct {
				Examples map[string]struct{ Value json.RawMessage }
			}
		} `json:"requestBody"`
	}
	Webhooks   map[string]map[string]json.RawMessage
	Components struct {
		Schemas map[string]struct {
			Properties map[string]json.RawMessage
		}
		SecuritySchemes map[string]struct{ Type, In, Name, Scheme string } `json:"securitySchemes"`
	}
}

// TestDocsPage opens /docs in chromium at 1280 px (light) and 390 px
// (dark) and checks that it renders the document the engine serves: every
// operation with its method, path, summary, rate-limit bucket,
// authentication and parameters, every webhook, schema and error code, a
// request example; that the skip link, the filter and the contents work
// from the keyboard; that a schema link opens the schema; and that every
// page state is free of accessibility violations, console errors, CSP
// violations and horizontal overflow.
func TestDocsPage(t *testing.T) {
	ts := apptest.NewTestServer(t)
	var doc openAPIDoc
	if err := json.Unmarshal(ts.Do("GET", "/v1/openapi.json", nil, nil).Body, &doc); err != nil {
		t.Fatal(err)
	}
	var catalog struct {
		Errors []struct {
			Code   string
			Status int
		}
	}
	if err := json.Unmarshal(ts.Do("GET", "/v1/errors", nil, nil).Body, &catalog); err != nil {
		t.Fatal(err)
	}

	r := runBrowser(t, plan{BaseURL: ts.URL, Scenarios: []string{"docs"}})
	var seen docsSeen
	s := r.scenario(t, "docs", &seen)
	if len(s.Audits) != 2 {
		t.Errorf("docs scenario recorded %d page states, want 2 (1280 light, 390 dark)", len(s.Audits))
	}
	checkPNG(t, seen.ErrorsShot, 390)
	if len(seen.ErrorsConsole) > 0 {
		t.Errorf("/docs#errors at 390 px: console errors %v", seen.ErrorsConsole)
	}

	if seen.Title != doc.Info.Title {
		t.Errorf("page title %q, document title %q", seen.Title, doc.Info.Title)
	}
	checkOperations(t, doc, seen.Operations)
	var hooks []string
	for name := range doc.Webhooks {
		hooks = append(hooks, name)
	}
	sort.Strings(hooks)
	var shownHooks []string
	for _, w := range seen.Webhooks {
		shownHooks = append(shownHooks, w.Path)
	}
	if !slices.Equal(hooks, shownHooks) {
		t.Errorf("webhooks shown %v, document has %v", shownHooks, hooks)
	}
	if len(seen.ErrorCodes) != len(catalog.Errors) {
		t.Errorf("%d error codes shown, GET /v1/errors has %d", len(seen.ErrorCodes), len(catalog.Errors))
	}
	for i, e := range catalog.Errors {
		if i < len(seen.ErrorCodes) && (seen.ErrorCodes[i].Code != e.Code || seen.ErrorCodes[i].Status != strconv.Itoa(e.Status)) {
			t.Errorf("error row %d shows %v, catalogue has %s %d", i, seen.ErrorCodes[i], e.Code, e.Status)
		}
	}
	var schemas []string
	for name := range doc.Components.Schemas {
		schemas = append(schemas, name)
	}
	sort.Strings(schemas)
	if !slices.Equal(schemas, seen.Schemas) {
		t.Errorf("schemas shown %v, document has %v", seen.Schemas, schemas)
	}
	checkSubmitExample(t, doc, seen.SubmitExample)
	checkDocsKeyboard(t, doc, seen)
}

// checkOperations compares the rendered operations with the document's.
func checkOperations(t *testing.T, doc openAPIDoc, shown []renderedOp) {
	t.Helper()
	byAnchor := map[string]renderedOp{}
	for _, op := range shown {
		byAnchor[op.Anchor] = op
	}
	n := 0
	for path, item := range doc.Paths {
		for method, op := range item {
			n++
			got, ok := byAnchor["op-"+op.OperationID]
			if !ok {
				t.Errorf("%s %s (%s) is not on the page", method, path, op.OperationID)
				continue
			}
			if got.Method != strings.ToUpper(method) || got.Path != path || got.Summary != op.Summary || got.Bucket != op.Bucket {
				t.Errorf("%s shows %s %s %q bucket %q; document: %s %s %q bucket %q", op.OperationID,
					got.Method, got.Path, got.Summary, got.Bucket, strings.ToUpper(method), path, op.Summary, op.Bucket)
			}
			if want := authLabel(doc, op.Security); got.Auth != want {
				t.Errorf("%s authentication shown as %q, want %q (document security %v)", op.OperationID, got.Auth, want, op.Security)
			}
			var params []string
			for _, p := range op.Parameters {
				params = append(params, p.Name)
			}
			if !slices.Equal(params, got.Params) {
				t.Errorf("%s parameters shown %v, document has %v", op.OperationID, got.Params, params)
			}
		}
	}
	if n != len(shown) || n == 0 {
		t.Errorf("%d operations shown, the document has %d", len(shown), n)
	}
}

// checkSubmitExample: the first request example of submitOrder is shown as
// the document's JSON value.
func checkSubmitExample(t *testing.T, doc openAPIDoc, shown string) {
	t.Helper()
	examples := doc.Paths["/v1/orders"]["post"].RequestBody.Content["application/json"].Examples
	var want any
	for _, name := range sortedKeys(examples) {
		if err := json.Unmarshal(examples[name].Value, &want); err != nil {
			t.Fatal(err)
		}
		break
	}
	var got any
	if err := json.Unmarshal([]byte(shown), &got); err != nil || want == nil || !reflect.DeepEqual(got, want) {
		t.Errorf("submitOrder's request example shown as %q (%v), want the document's %v", shown, err, want)
	}
}

// checkDocsKeyboard checks the keyboard walk, the filter, the schema link
// and the narrow layout.
func checkDocsKeyboard(t *testing.T, doc openAPIDoc, seen docsSeen) {
	t.Helper()
	if seen.FirstTab != "Skip to the reference" || seen.AfterSkip != "main" {
		t.Errorf("first Tab reaches %q, Enter then focuses #%s; want the skip link, then #main", seen.FirstTab, seen.AfterSkip)
	}
	var want []string
	for path, item := range doc.Paths {
		for method, op := range item {
			text := strings.ToLower(strings.Join(append([]string{method, path, op.Summary, op.OperationID}, op.Tags...), " "))
			if strings.Contains(text, "webhooks") {
				want = append(want, "op-"+op.OperationID)
			}
		}
	}
	sort.Strings(want)
	got := slices.Sorted(slices.Values(seen.Filtered))
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("filter \"webhooks\" shows %v, want %v", got, want)
	}
	if !strings.HasPrefix(seen.FilterStatus, strconv.Itoa(len(want))+" operations match") {
		t.Errorf("filter status %q", seen.FilterStatus)
	}
	if seen.TocTarget.Hash != "#op-getOrder" || seen.TocTarget.Focused != "op-getOrder" || !seen.TocTarget.InView {
		t.Errorf("Enter on the contents link of getOrder: %+v", seen.TocTarget)
	}
	var props []string
	for name := range doc.Components.Schemas["Route"].Properties {
		props = append(props, name)
	}
	sort.Strings(props)
	if got := slices.Sorted(slices.Values(seen.RouteSchemaProps)); !slices.Equal(got, props) {
		t.Errorf("the Route schema link opens properties %v, want %v", got, props)
	}
	if seen.HashLoad.Focused != "op-cancelOrder" || !seen.HashLoad.InView || len(seen.HashLoad.ConsoleErrors) > 0 {
		t.Errorf("/docs#op-cancelOrder: %+v", seen.HashLoad)
	}
	if seen.NarrowTocOpen {
		t.Error("at 390 px the contents start open, pushing the reference down")
	}
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// authLabel is how the page must state an operation's security
// requirement: "None (keyless)", or the alternatives joined by " or ",
// each scheme by its wire form ("X-API-Key header", "Authorization:
// Bearer"), schemes required together joined by " and ", and "optional: "
// before them when an empty requirement makes them optional.
func authLabel(doc openAPIDoc, security []map[string][]string) string {
	var alts []string
	optional := false
	for _, req := range security {
		if len(req) == 0 {
			optional = true
			continue
		}
		var parts []string
		for _, name := range sortedKeys(req) {
			s := doc.Components.SecuritySchemes[name]
			switch s.Type {
			case "apiKey":
				parts = append(parts, s.Name+" "+s.In)
			case "http":
				scheme := s.Scheme
				if scheme == "bearer" {
					scheme = "Bearer"
				}
				parts = append(parts, "Authorization: "+scheme)
			default:
				parts = append(parts, name)
			}
		}
		alts = append(alts, strings.Join(parts, " and "))
	}
	switch {
	case len(alts) == 0:
		return "None (keyless)"
	case optional:
		return "optional: " + strings.Join(alts, " or ")
	}
	return strings.Join(alts, " or ")
}
