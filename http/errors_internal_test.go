package http

import (
	"encoding/json"
	"testing"
)

func TestAppendJSONString(t *testing.T) {
	for _, s := range []string{"", "plain", `quote " and \ backslash`, "ctl \n\t\x01", "<tag>&amp;", "ünïcode ✓"} {
		var got string
		if err := json.Unmarshal(appendJSONString(nil, s), &got); err != nil || got != s {
			t.Errorf("%q: got %q, %v", s, got, err)
		}
	}
}
