package http

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/orderengine/orderengine"
)

// examplesJSON holds the document's examples, taken from a dev-chain run
// (make run): see exampleSet for its shape. TestOpenAPIExamplesValidate
// checks every example against its schema.
//
//go:embed openapi_examples.json
var examplesJSON []byte

// exampleSet is the shape of openapi_examples.json.
type exampleSet struct {
	// Parameters are the example of every parameter of that name, unless
	// the operation names its own.
	Parameters map[string]any `json:"parameters"`
	// Errors are the message of each code's example error object, unless
	// the operation names its own.
	Errors map[orderengine.Code]string `json:"errors"`
	// RequestID is the requestId of the example error objects.
	RequestID string `json:"requestId"`
	// Headers are the examples of the components.headers by name.
	Headers map[string]any `json:"headers"`
	// Operations are the examples of each operation by id.
	Operations map[string]operationExamples `json:"operations"`
}

// operationExamples are one operation's examples. Request and Response are
// named examples of the request body and of the success response (a
// webhook's Request is the delivery it receives).
type operationExamples struct {
	Parameters map[string]any              `json:"parameters"`
	Request    map[string]namedExample     `json:"request"`
	Response   map[string]namedExample     `json:"response"`
	Errors     map[orderengine.Code]string `json:"errors"`
}

type namedExample struct {
	Summary string `json:"summary"`
	Value   any    `json:"value"`
}

var openapiExamples = mustParseExamples(examplesJSON)

// mustParseExamples decodes openapi_examples.json; numbers stay as written.
// It panics on a malformed file (embedded, so every test catches it).
func mustParseExamples(data []byte) *exampleSet {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	var ex exampleSet
	if err := dec.Decode(&ex); err != nil {
		panic(fmt.Sprintf("http: openapi_examples.json: %v", err))
	}
	return &ex
}

// errorExamples are the examples of an error response with codes (nil:
// any code, shown by INTERNAL), keyed by code: references to the code's
// example in components.examples (errorComponents), which an operation's
// own message replaces (errorMessages).
func errorExamples(codes []orderengine.Code) obj {
	if len(codes) == 0 {
		codes = []orderengine.Code{orderengine.CodeInternal}
	}
	out := obj{}
	for _, c := range codes {
		out[string(c)] = obj{"$ref": "#/components/examples/" + string(c)}
	}
	return out
}

// errorExample is the example error object of code with message msg (the
// default message of openapi_examples.json when empty).
func errorExample(code orderengine.Code, msg string) obj {
	info, _ := orderengine.LookupCode(code)
	if msg == "" {
		msg = openapiExamples.Errors[code]
	}
	if msg == "" {
		msg = info.Description
	}
	return obj{"summary": info.Description,
		"value": obj{"error": msg, "code": string(code), "requestId": openapiExamples.RequestID}}
}

// errorComponents adds to components.examples the example of every code
// that a response of ops refers to.
func errorComponents(doc obj, ops map[string]obj) {
	examples := obj{}
	for _, op := range ops {
		for _, r := range op["responses"].(obj) {
			content, _ := r.(obj)["content"].(obj)
			media, _ := content["application/json"].(obj)
			refs, _ := media["examples"].(obj)
			for code, e := range refs {
				if target, ok := e.(obj)["$ref"].(string); ok && strings.HasPrefix(target, "#/components/examples/") {
					examples[code] = errorExample(orderengine.Code(code), "")
				}
			}
		}
	}
	doc["components"].(obj)["examples"] = examples
}

// addExamples sets the examples of openapi_examples.json on doc's
// parameters, request bodies, success responses and headers, and the
// operations' own error messages. An example for something the document
// lacks is an error.
func addExamples(doc obj) error {
	ex := openapiExamples
	for _, c := range sortedKeys(ex.Errors) {
		if _, ok := orderengine.LookupCode(c); !ok {
			return fmt.Errorf("http: openapi_examples.json has a message for %s, which is not a catalog code", c)
		}
	}
	ops := operations(doc)
	for _, id := range sortedKeys(ex.Operations) {
		if ops[id] == nil && !configuredOut[id] {
			return fmt.Errorf("http: openapi_examples.json has examples of %s, which is not an operation", id)
		}
	}
	for _, id := range sortedKeys(ops) {
		op, oe := ops[id], ex.Operations[id]
		if err := parameterExamples(op, oe.Parameters, ex.Parameters); err != nil {
			return fmt.Errorf("http: openapi_examples.json, %s: %w", id, err)
		}
		if err := bodyExamples(op, oe); err != nil {
			return fmt.Errorf("http: openapi_examples.json, %s: %w", id, err)
		}
		if err := errorMessages(op, oe.Errors); err != nil {
			return fmt.Errorf("http: openapi_examples.json, %s: %w", id, err)
		}
	}
	errorComponents(doc, ops)
	headers := doc["components"].(obj)["headers"].(obj)
	for _, name := range sortedKeys(ex.Headers) {
		h, _ := headers[name].(obj)
		if h == nil {
			return fmt.Errorf("http: openapi_examples.json has an example of header %s, which is not a component", name)
		}
		h["example"] = ex.Headers[name]
	}
	return nil
}

func parameterExamples(op obj, own, shared map[string]any) error {
	params, _ := op["parameters"].([]obj)
	used := map[string]bool{}
	for _, p := range params {
		name := p["name"].(string)
		if v, ok := own[name]; ok {
			p["example"], used[name] = v, true
		} else if v, ok := shared[name]; ok {
			p["example"] = v
		}
	}
	for _, name := range sortedKeys(own) {
		if !used[name] {
			return fmt.Errorf("parameter %s is not one of the operation's", name)
		}
	}
	return nil
}

func bodyExamples(op obj, oe operationExamples) error {
	if oe.Request != nil {
		body, _ := op["requestBody"].(obj)
		if body == nil {
			return fmt.Errorf("request examples, but the operation takes no body")
		}
		setExamples(body, oe.Request)
	}
	if oe.Response != nil {
		resp := successResponse(op)
		if resp == nil || resp["content"] == nil {
			return fmt.Errorf("response examples, but the operation has no success response with content")
		}
		setExamples(resp, oe.Response)
	}
	return nil
}

// setExamples sets named examples on the only media type of r's content.
func setExamples(r obj, named map[string]namedExample) {
	out := obj{}
	for name, e := range named {
		out[name] = obj{"summary": e.Summary, "value": e.Value}
	}
	for _, media := range r["content"].(obj) {
		media.(obj)["examples"] = out
	}
}

// successResponse returns op's 2xx response.
func successResponse(op obj) obj {
	responses := op["responses"].(obj)
	var statuses []string
	for status := range responses {
		if strings.HasPrefix(status, "2") {
			statuses = append(statuses, status)
		}
	}
	sort.Strings(statuses)
	if len(statuses) == 0 {
		return nil
	}
	return responses[statuses[0]].(obj)
}

// errorMessages replaces the message of the example of each code in
// messages, in whichever error response of op holds it.
func errorMessages(op obj, messages map[orderengine.Code]string) error {
	for _, code := range sortedKeys(messages) {
		found := false
		for _, r := range op["responses"].(obj) {
			content, _ := r.(obj)["content"].(obj)
			media, _ := content["application/json"].(obj)
			examples, _ := media["examples"].(obj)
			if _, ok := examples[string(code)]; ok {
				examples[string(code)] = errorExample(code, messages[code])
				found = true
			}
		}
		if !found {
			return fmt.Errorf("an error message for %s, which the operation does not answer", code)
		}
	}
	return nil
}
