package apptest

import (
	"encoding/json"
	"fmt"
	nethttp "net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
)

// Undeclared lists the fields of a JSON answer to req that the served
// document's schema for the operation and status does not declare. The
// document's response schemas may stay open to additions, so Check alone
// does not see a field the document does not describe. An answer with a
// status the operation does not list (only the catch-all default would
// match it), or an error code the response for its status does not name,
// is an error.
func (v *Validator) Undeclared(req *nethttp.Request, status int, body []byte) ([]string, error) {
	v.mu.Lock()
	router := v.router
	v.mu.Unlock()
	r := req.Clone(req.Context())
	r.URL = &url.URL{Scheme: req.URL.Scheme, Host: req.URL.Host, Path: req.URL.Path, RawQuery: req.URL.RawQuery}
	route, _, err := router.FindRoute(r)
	if err != nil {
		return nil, err
	}
	resp := route.Operation.Responses.Status(status)
	if resp == nil || resp.Value == nil || resp.Value.Content.Get("application/json") == nil {
		return nil, fmt.Errorf("%s %s: status %d is not documented", req.Method, route.Path, status)
	}
	var value any
	if err := json.Unmarshal(body, &value); err != nil {
		return nil, err
	}
	if err := documentedCode(resp.Value, value); err != nil {
		return nil, fmt.Errorf("%s %s: %d: %w", req.Method, route.Path, status, err)
	}
	return UndeclaredFields(resp.Value.Content.Get("application/json").Schema, value), nil
}

// UndeclaredFields lists the fields of the decoded JSON body v, at any
// depth, that schema does not declare, as paths from "body" (body.a.b[2]).
func UndeclaredFields(schema *openapi3.SchemaRef, v any) []string {
	return undeclared(schema, v, "body")
}

// errorCodesPrefix starts the description the document gives an error
// response that lists its codes (http.errorResponse).
const errorCodesPrefix = "Error object with code "

// documentedCode checks that an error answer's code is one the response
// lists (an answer may have a documented status with a code the operation
// does not name).
func documentedCode(resp *openapi3.Response, body any) error {
	m, ok := body.(map[string]any)
	if !ok || resp.Description == nil || !strings.HasPrefix(*resp.Description, errorCodesPrefix) {
		return nil
	}
	code, _ := m["code"].(string)
	list := strings.TrimSuffix(strings.TrimPrefix(*resp.Description, errorCodesPrefix), ".")
	for _, c := range strings.Split(list, ", ") {
		if c == code {
			return nil
		}
	}
	return fmt.Errorf("code %q is not among the documented %s", code, list)
}

// GetStrict is Get that also fails the test when the answer carries a field
// its schema in the served document does not declare.
func (s *Server) GetStrict(path string) *Response {
	s.t.Helper()
	r := s.Get(path)
	req := s.request(s.URL, "GET", path, nil, nil)
	extra, err := s.check.Undeclared(req, r.Status, r.Body)
	if err != nil {
		s.t.Errorf("GET %s: %v", path, err)
	} else if len(extra) > 0 {
		s.t.Errorf("GET %s: %d answer carries fields the OpenAPI document does not declare: %v\nbody: %s", path, r.Status, extra, r.Body)
	}
	return r
}

// declared returns the properties an object schema declares, its own and
// those of its allOf parts.
func declared(s *openapi3.Schema) map[string]*openapi3.SchemaRef {
	out := map[string]*openapi3.SchemaRef{}
	for name, p := range s.Properties {
		out[name] = p
	}
	for _, part := range s.AllOf {
		for name, p := range declared(part.Value) {
			if _, ok := out[name]; !ok {
				out[name] = p
			}
		}
	}
	return out
}

// undeclared lists the fields of v, at any depth, that its schema does not
// declare: an object's keys missing from its properties (unless the schema
// maps every key through additionalProperties), recursively through
// properties, array items and the alternative of a oneOf/anyOf that v
// matches.
func undeclared(ref *openapi3.SchemaRef, v any, at string) []string {
	if ref == nil || ref.Value == nil || v == nil {
		return nil
	}
	s := ref.Value
	for _, alts := range []openapi3.SchemaRefs{s.OneOf, s.AnyOf} {
		for _, alt := range alts {
			if alt.Value.VisitJSON(v, openapi3.EnableJSONSchema2020()) == nil {
				return undeclared(alt, v, at)
			}
		}
	}
	var out []string
	switch x := v.(type) {
	case map[string]any:
		if extra := s.AdditionalProperties.Schema; extra != nil {
			for k, fv := range x {
				out = append(out, undeclared(extra, fv, at+"."+k)...)
			}
			return out
		}
		props := declared(s)
		for k, fv := range x {
			p, ok := props[k]
			if !ok {
				out = append(out, at+"."+k)
				continue
			}
			out = append(out, undeclared(p, fv, at+"."+k)...)
		}
	case []any:
		for i, item := range x {
			out = append(out, undeclared(s.Items, item, at+"["+strconv.Itoa(i)+"]")...)
		}
	}
	return out
}
