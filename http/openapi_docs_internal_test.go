package http

import (
	"strings"
	"testing"

	"github.com/orderengine/orderengine"
	"github.com/orderengine/orderengine/config"
)

// TestMustParseSections checks the split of openapi_operations.md: the
// preamble is left out, each "## " heading starts a section, and a "### "
// heading stays inside its section.
func TestMustParseSections(t *testing.T) {
	got := mustParseSections("# Title\n\nignored\n\n## a\n\nfirst\n### sub\nmore\n\n## b\nsecond\n")
	if len(got) != 2 || got["a"] != "first\n### sub\nmore" || got["b"] != "second" {
		t.Fatalf("sections %q", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("a repeated heading does not panic")
		}
	}()
	mustParseSections("## a\nx\n## a\ny\n")
}

// TestOpenAPIDocsNameOnlyExistingThings checks that a description or an
// example of something the document lacks (a renamed operation, schema,
// property, parameter or code) makes OpenAPIDocument fail instead of being
// dropped silently, and that a second description of a described schema
// is refused. It edits package-level maps, so it must not run in parallel.
func TestOpenAPIDocsNameOnlyExistingThings(t *testing.T) {
	if _, err := OpenAPIDocument(publicRoutes(), config.Default().HTTP); err != nil {
		t.Fatalf("the document does not build: %v", err)
	}
	cases := []struct {
		name, want string
		edit       func() (undo func())
	}{
		{"operation description", "noSuchOperation", func() func() {
			operationDocs["noSuchOperation"] = "x"
			return func() { delete(operationDocs, "noSuchOperation") }
		}},
		{"schema description", "NoSuchSchema", func() func() {
			schemaDocs["NoSuchSchema"] = "x"
			return func() { delete(schemaDocs, "NoSuchSchema") }
		}},
		{"second schema description", "Address is described twice", func() func() {
			schemaDocs["Address"] = "x"
			return func() { delete(schemaDocs, "Address") }
		}},
		{"property description", "Route.noSuchField", func() func() {
			propertyDocs["Route.noSuchField"] = "x"
			return func() { delete(propertyDocs, "Route.noSuchField") }
		}},
		{"operation examples", "noSuchOperation", func() func() {
			openapiExamples.Operations["noSuchOperation"] = operationExamples{}
			return func() { delete(openapiExamples.Operations, "noSuchOperation") }
		}},
		{"parameter example", "parameter noSuchParam", func() func() {
			saved := openapiExamples.Operations["getRoute"]
			changed := saved
			changed.Parameters = map[string]any{"noSuchParam": "1"}
			openapiExamples.Operations["getRoute"] = changed
			return func() { openapiExamples.Operations["getRoute"] = saved }
		}},
		{"error message", string(orderengine.CodeLimitReached), func() func() {
			saved := openapiExamples.Operations["getRoute"]
			changed := saved
			changed.Errors = map[orderengine.Code]string{orderengine.CodeLimitReached: "x"}
			openapiExamples.Operations["getRoute"] = changed
			return func() { openapiExamples.Operations["getRoute"] = saved }
		}},
		{"request example of an operation without a body", "takes no body", func() func() {
			saved := openapiExamples.Operations["getStats"]
			changed := saved
			changed.Request = map[string]namedExample{"x": {Value: 1}}
			openapiExamples.Operations["getStats"] = changed
			return func() { openapiExamples.Operations["getStats"] = saved }
		}},
	}
	for _, c := range cases {
		undo := c.edit()
		_, err := OpenAPIDocument(publicRoutes(), config.Default().HTTP)
		undo()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error naming %q", c.name, err, c.want)
		}
	}
}
