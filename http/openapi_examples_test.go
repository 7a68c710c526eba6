package http_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/orderengine/orderengine/actors/webhook"
	"github.com/orderengine/orderengine/app/apptest"
	"github.com/orderengine/orderengine/config"
)

// servedDocument loads the document the test server serves.
func servedDocument(t *testing.T) *openapi3.T {
	t.Helper()
	ts := apptest.NewTestServer(t)
	doc, err := apptest.LoadDocument(context.Background(), ts.Do("GET", "/v1/openapi.json", nil, nil).Body)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// checkValue validates an example value against its schema with JSON
// Schema 2020-12 semantics, formats (date-time, uri) included.
func checkValue(schema *openapi3.SchemaRef, v any) error {
	if schema == nil || schema.Value == nil {
		return fmt.Errorf("no schema")
	}
	return schema.Value.VisitJSON(v, openapi3.EnableJSONSchema2020(), openapi3.EnableFormatValidation(), openapi3.MultiErrors())
}

// documentedOp is one operation of the paths or the webhooks section.
type documentedOp struct {
	where string
	op    *openapi3.Operation
}

func allOperations(doc *openapi3.T) []documentedOp {
	var out []documentedOp
	add := func(prefix string, items map[string]*openapi3.PathItem) {
		for key, item := range items {
			for method, op := range item.Operations() {
				out = append(out, documentedOp{prefix + method + " " + key, op})
			}
		}
	}
	add("", doc.Paths.Map())
	add("webhook ", doc.Webhooks)
	sort.Slice(out, func(i, j int) bool { return out[i].where < out[j].where })
	return out
}

// mediaExamples validates the examples of a content map and returns how
// many there are.
func mediaExamples(t *testing.T, where string, content openapi3.Content) int {
	t.Helper()
	n := 0
	for mediaType, media := range content {
		if media.Example != nil {
			n++
			if err := checkValue(media.Schema, media.Example); err != nil {
				t.Errorf("%s %s: example: %v", where, mediaType, err)
			}
		}
		for name, e := range media.Examples {
			n++
			if err := checkValue(media.Schema, e.Value.Value); err != nil {
				t.Errorf("%s %s: example %s: %v", where, mediaType, name, err)
			}
		}
	}
	return n
}

// TestOpenAPIExamplesValidate checks every example of the served document
// against its schema (parameters, request bodies, responses, and the header
// components every response refers to), so an example can never drift
// from the schema it illustrates, and that every operation has them: an
// example of each parameter, of a request body when it takes one, of its
// success response and of every error response.
func TestOpenAPIExamplesValidate(t *testing.T) {
	doc := servedDocument(t)
	ops := allOperations(doc)
	if len(ops) < 30 {
		t.Fatalf("%d operations, want every path and webhook operation", len(ops))
	}
	for _, d := range ops {
		for _, p := range d.op.Parameters {
			param := p.Value
			switch {
			case param.Example != nil:
				if err := checkValue(param.Schema, param.Example); err != nil {
					t.Errorf("%s: parameter %s: example: %v", d.where, param.Name, err)
				}
			case len(param.Examples) > 0:
				for name, e := range param.Examples {
					if err := checkValue(param.Schema, e.Value.Value); err != nil {
						t.Errorf("%s: parameter %s: example %s: %v", d.where, param.Name, name, err)
					}
				}
			default:
				t.Errorf("%s: parameter %s has no example", d.where, param.Name)
			}
		}
		if body := d.op.RequestBody; body != nil {
			if mediaExamples(t, d.where+" request body", body.Value.Content) == 0 {
				t.Errorf("%s: the request body has no example", d.where)
			}
		}
		success := 0
		for status, r := range d.op.Responses.Map() {
			where := d.where + " response " + status
			n := mediaExamples(t, where, r.Value.Content)
			switch {
			case strings.HasPrefix(status, "2"):
				success += n
			case r.Value.Content != nil && n == 0:
				t.Errorf("%s: no example of the error object", where)
			}
		}
		if success == 0 && !strings.HasPrefix(d.where, "webhook ") {
			t.Errorf("%s: no example of the success response", d.where)
		}
	}
	headerExamples := 0
	for name, h := range doc.Components.Headers {
		if h.Value.Example != nil {
			headerExamples++
			if err := checkValue(h.Value.Schema, h.Value.Example); err != nil {
				t.Errorf("header component %s: example: %v", name, err)
			}
		}
	}
	if headerExamples == 0 {
		t.Error("no header component has an example")
	}
}

// TestOpenAPIExampleCheckFails proves the check above can fail: the submit
// example with a maker that is not an address, and the route example
// without a required field, are refused.
func TestOpenAPIExampleCheckFails(t *testing.T) {
	doc := servedDocument(t)
	submit := doc.Paths.Find("/v1/orders").Post.RequestBody.Value.Content.Get("application/json")
	limit := submit.Examples["limit"].Value.Value.(map[string]any)
	if err := checkValue(submit.Schema, limit); err != nil {
		t.Fatalf("the submit example is invalid: %v", err)
	}
	bad := map[string]any{}
	for k, v := range limit {
		bad[k] = v
	}
	order := map[string]any{}
	for k, v := range limit["order"].(map[string]any) {
		order[k] = v
	}
	order["maker"] = "maker-1"
	bad["order"] = order
	if err := checkValue(submit.Schema, bad); err == nil {
		t.Error("a submit example with maker \"maker-1\" validates")
	}
	route := doc.Paths.Find("/v1/route").Get.Responses.Status(200).Value.Content.Get("application/json")
	value := route.Examples["limit"].Value.Value.(map[string]any)
	trimmed := map[string]any{}
	for k, v := range value {
		if k != "feeLegs" {
			trimmed[k] = v
		}
	}
	if err := checkValue(route.Schema, trimmed); err == nil {
		t.Error("a route example without feeLegs validates")
	}
}

// TestOpenAPIDocumented checks that every operation has a summary and a
// description, every component schema a description, every tag and
// security scheme a description, and that the document is served from the
// configured public URL.
func TestOpenAPIDocumented(t *testing.T) {
	doc := servedDocument(t)
	for _, d := range allOperations(doc) {
		if d.op.Summary == "" || len(d.op.Description) < 80 {
			t.Errorf("%s (%s): summary %q, description of %d characters", d.where, d.op.OperationID, d.op.Summary, len(d.op.Description))
		}
	}
	for name, s := range doc.Components.Schemas {
		if s.Value.Description == "" {
			t.Errorf("schema %s has no description", name)
		}
	}
	for _, tag := range doc.Tags {
		if tag.Description == "" {
			t.Errorf("tag %s has no description", tag.Name)
		}
	}
	for name, s := range doc.Components.SecuritySchemes {
		if s.Value.Description == "" {
			t.Errorf("security scheme %s has no description", name)
		}
	}
	sig := doc.Components.SecuritySchemes["WebhookSignature"]
	if sig == nil || sig.Value.Type != "apiKey" || sig.Value.In != "header" || sig.Value.Name != "X-Service-Signature" ||
		!strings.Contains(sig.Value.Description, "HMAC-SHA256") {
		t.Error("no WebhookSignature scheme for X-Service-Signature describing the HMAC")
	}
	for trigger, item := range doc.Webhooks {
		op := item.Post
		if op == nil || op.Security == nil || len(*op.Security) != 1 || (*op.Security)[0]["WebhookSignature"] == nil {
			t.Errorf("webhook %s is not signed with WebhookSignature", trigger)
			continue
		}
		for _, h := range []string{"X-Service-Event", "X-Service-Delivery", "X-Service-Signature"} {
			if op.Parameters.GetByInAndName("header", h) == nil {
				t.Errorf("webhook %s does not declare header %s", trigger, h)
			}
		}
		// Each trigger's body schema takes its own trigger only.
		body := op.RequestBody.Value.Content.Get("application/json").Schema
		ping := map[string]any{"id": "evt_x", "trigger": "test.ping", "createdAt": "2026-11-26T20:11:57Z", "data": map[string]any{"message": "hi"}}
		if err := checkValue(body, ping); (err == nil) != (trigger == "test.ping") {
			t.Errorf("webhook %s: a test.ping body: %v", trigger, err)
		}
	}
	if len(doc.Webhooks) != 8 {
		t.Errorf("%d webhooks, want one per trigger (8)", len(doc.Webhooks))
	}
	if len(doc.Servers) != 1 || !strings.HasPrefix(doc.Servers[0].URL, "http://127.0.0.1:") {
		t.Errorf("servers %v, want the derived http://127.0.0.1:<port>", doc.Servers)
	}
}

// TestOpenAPIServersFollowPublicURL checks that the servers entry is the
// configured http.publicURL.
func TestOpenAPIServersFollowPublicURL(t *testing.T) {
	ts := apptest.NewTestServer(t, apptest.WithConfig(func(c *config.Config) { c.HTTP.PublicURL = "https://api.example.org/" }))
	doc, err := apptest.LoadDocument(context.Background(), ts.Do("GET", "/v1/openapi.json", nil, nil).Body)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Servers) != 1 || doc.Servers[0].URL != "https://api.example.org" {
		t.Errorf("servers %v, want https://api.example.org", doc.Servers)
	}
}

// TestOpenAPIWebhookExamplesAreSigned checks that the X-Service-Signature
// example of every webhook signs that webhook's body example (as compact
// JSON) with the secret of the createWebhook example, so a receiver can
// test its verification against the document.
func TestOpenAPIWebhookExamplesAreSigned(t *testing.T) {
	doc := servedDocument(t)
	created := doc.Paths.Find("/v1/webhooks").Post.Responses.Status(201).Value.Content.Get("application/json")
	secret, _ := created.Examples["created"].Value.Value.(map[string]any)["secret"].(string)
	if !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("createWebhook example secret %q", secret)
	}
	verified := 0
	for trigger, item := range doc.Webhooks {
		header, _ := item.Post.Parameters.GetByInAndName("header", "X-Service-Signature").Example.(string)
		t0, err := strconv.ParseInt(strings.TrimPrefix(strings.Split(header, ",")[0], "t="), 10, 64)
		if err != nil {
			t.Errorf("webhook %s: signature example %q: %v", trigger, header, err)
			continue
		}
		for name, e := range item.Post.RequestBody.Value.Content.Get("application/json").Examples {
			body, err := json.Marshal(e.Value.Value)
			if err != nil {
				t.Fatal(err)
			}
			if err := webhook.Verify(header, body, secret, time.Unix(t0, 0), webhook.DefaultTolerance); err != nil {
				t.Errorf("webhook %s: example %s: %v", trigger, name, err)
			} else {
				verified++
			}
			if err := webhook.Verify(header, append(body, ' '), secret, time.Unix(t0, 0), webhook.DefaultTolerance); err == nil {
				t.Errorf("webhook %s: example %s: the signature also verifies a changed body", trigger, name)
			}
		}
	}
	if verified < len(doc.Webhooks) || len(doc.Webhooks) == 0 {
		t.Errorf("%d webhook examples verified, want one per webhook (%d)", verified, len(doc.Webhooks))
	}
}
