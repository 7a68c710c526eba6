package apptest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	nethttp "net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/orderengine/orderengine/internal/sse"
)

// Validator checks responses against the server's OpenAPI document with
// kin-openapi. It is safe for concurrent use.
type Validator struct {
	mu     sync.Mutex
	doc    *openapi3.T
	router routers.Router
}

// NewValidator fetches base/v1/openapi.json, validates the document and
// prepares a router for it.
func NewValidator(ctx context.Context, base string) (*Validator, error) {
	req, err := nethttp.NewRequestWithContext(ctx, "GET", base+"/v1/openapi.json", nil)
	if err != nil {
		return nil, err
	}
	resp, err := nethttp.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	doc, err := openapi3.NewLoader().LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	// SetServer builds the router, which validates the document: once per
	// server, not twice.
	v := &Validator{doc: doc}
	if err := v.SetServer(base); err != nil {
		return nil, fmt.Errorf("validate: %w", err)
	}
	return v, nil
}

// loadOptions skip the validation of the document's examples: every test
// server loads and validates the document, while its examples are
// validated once, by http's TestOpenAPIExamplesValidate.
var loadOptions = []openapi3.ValidationOption{openapi3.DisableExamplesValidation()}

// LoadDocument parses and validates an OpenAPI document (its examples
// aside: see loadOptions).
func LoadDocument(ctx context.Context, data []byte) (*openapi3.T, error) {
	loader := openapi3.NewLoader()
	doc, err := loader.LoadFromData(data)
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	if err := doc.Validate(ctx, loadOptions...); err != nil {
		return nil, fmt.Errorf("validate: %w", err)
	}
	return doc, nil
}

// SetServer points the router at base (the test server's port changes on
// restart).
func (v *Validator) SetServer(base string) error {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.doc.Servers = openapi3.Servers{{URL: base}}
	r, err := legacy.NewRouter(v.doc, loadOptions...)
	if err != nil {
		return err
	}
	v.router = r
	return nil
}

// Check validates one response to req. A request that matches no operation
// (an unknown route, a wrong method) must still answer the Error schema.
func (v *Validator) Check(req *nethttp.Request, status int, header nethttp.Header, body []byte) error {
	v.mu.Lock()
	router, doc := v.router, v.doc
	v.mu.Unlock()
	u := *req.URL
	r := req.Clone(context.Background())
	r.URL = &url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path, RawQuery: u.RawQuery}
	route, params, err := router.FindRoute(r)
	if err != nil {
		var value any
		if err := json.Unmarshal(body, &value); err != nil {
			return fmt.Errorf("unrouted response is not JSON: %w", err)
		}
		return doc.Components.Schemas["Error"].Value.VisitJSON(value, openapi3.EnableJSONSchema2020())
	}
	if mt, _, _ := strings.Cut(header.Get("Content-Type"), ";"); strings.TrimSpace(mt) == eventStream {
		return checkEventStream(route.Operation, status, body)
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: r, PathParams: params, Route: route},
		Status:                 status,
		Header:                 header,
		Body:                   io.NopCloser(bytes.NewReader(body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true},
	}
	return openapi3filter.ValidateResponse(context.Background(), in)
}

// eventStream is the media type of the Server-Sent Events streams.
const eventStream = "text/event-stream"

// CheckEvent validates one event of the stream at url (GET) against the
// event schema of its operation's 200 answer.
func (v *Validator) CheckEvent(url string, ev sse.Event) error {
	v.mu.Lock()
	router := v.router
	v.mu.Unlock()
	req, err := nethttp.NewRequest(nethttp.MethodGet, url, nil)
	if err != nil {
		return err
	}
	route, _, err := router.FindRoute(req)
	if err != nil {
		return err
	}
	var data any
	if err := json.Unmarshal(ev.Data, &data); err != nil {
		return fmt.Errorf("event %s: data is not JSON: %w", ev.Name, err)
	}
	media := route.Operation.Responses.Status(200).Value.Content.Get(eventStream)
	if media == nil {
		return fmt.Errorf("GET %s declares no text/event-stream answer", url)
	}
	return media.Schema.Value.VisitJSON(map[string]any{"id": ev.ID, "event": ev.Name, "data": data}, openapi3.EnableJSONSchema2020())
}

// checkEventStream validates a stream's answer: the operation declares a
// text/event-stream answer for status, and each event of body, as the
// object {id, event, data} with data parsed as JSON, matches its schema
// (the event schemas of http/openapi_streams.go).
func checkEventStream(op *openapi3.Operation, status int, body []byte) error {
	resp := op.Responses.Status(status)
	if resp == nil || resp.Value.Content.Get(eventStream) == nil {
		return fmt.Errorf("%d text/event-stream is not a declared answer of %s", status, op.OperationID)
	}
	schema := resp.Value.Content.Get(eventStream).Schema
	r := sse.NewReader(bytes.NewReader(body))
	for n := 1; ; n++ {
		ev, err := r.Next()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		var data any
		if err := json.Unmarshal(ev.Data, &data); err != nil {
			return fmt.Errorf("event %d (%s): data is not JSON: %w", n, ev.Name, err)
		}
		frame := map[string]any{"id": ev.ID, "event": ev.Name, "data": data}
		if err := schema.Value.VisitJSON(frame, openapi3.EnableJSONSchema2020()); err != nil {
			return fmt.Errorf("event %d (%s, id %s): %w", n, ev.Name, strconv.Quote(ev.ID), err)
		}
	}
}
