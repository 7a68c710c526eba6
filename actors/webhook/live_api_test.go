package webhook_test

import (
	"encoding/json"
	"testing"
)

// TestStatsCountEndpointActors: GET /v1/stats counts the endpoint actors
// under actorsAlive.webhook, one per endpoint from its creation, and the
// count goes down when an endpoint is deleted and after a restart holds
// the stored endpoints again.
func TestStatsCountEndpointActors(t *testing.T) {
	s := targetServer(t, true)
	alive := func() int {
		t.Helper()
		r := s.Get("/v1/stats")
		var st struct {
			ActorsAlive map[string]int `json:"actorsAlive"`
		}
		if err := json.Unmarshal(r.Body, &st); err != nil || r.Status != 200 {
			t.Fatalf("GET /v1/stats: %d %s", r.Status, r.Body)
		}
		n, ok := st.ActorsAlive["webhook"]
		if !ok {
			t.Fatalf("actorsAlive lacks webhook: %s", r.Body)
		}
		return n
	}
	if n := alive(); n != 0 {
		t.Fatalf("%d endpoint actors before any endpoint", n)
	}
	var ids []string
	for _, u := range []string{"http://127.0.0.1:9/a", "http://127.0.0.1:9/b"} {
		r := createTarget(s, u)
		var v struct{ ID string }
		if err := json.Unmarshal(r.Body, &v); err != nil || r.Status != 201 {
			t.Fatalf("create %s: %d %s", u, r.Status, r.Body)
		}
		ids = append(ids, v.ID)
	}
	if n := alive(); n != 2 {
		t.Fatalf("%d endpoint actors for 2 endpoints", n)
	}
	if r := s.Do("DELETE", "/v1/webhooks/"+ids[0], nil, map[string]string{"X-API-Key": s.APIKey}); r.Status != 200 {
		t.Fatalf("delete: %d %s", r.Status, r.Body)
	}
	if n := alive(); n != 1 {
		t.Fatalf("%d endpoint actors after a delete, want 1", n)
	}
	s.Restart()
	if n := alive(); n != 1 {
		t.Fatalf("%d endpoint actors after a restart, want the 1 stored endpoint", n)
	}
}
