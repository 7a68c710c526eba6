package buildinfo

import (
	"runtime"
	"runtime/debug"
	"testing"
)

// TestResolve: the linker's values win; without them the go command's
// stamp (module version, vcs.revision, vcs.modified) is used; without
// either the answer says so instead of being empty.
func TestResolve(t *testing.T) {
	stamped := &debug.BuildInfo{GoVersion: "go1.27.3", Main: debug.Module{Version: "v0.0.0-20261120101010-abcdefabcdef+dirty"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abcdefabcdef0123"}, {Key: "vcs.modified", Value: "true"}}}
	cases := []struct {
		name            string
		version, commit string
		bi              *debug.BuildInfo
		want            Info
	}{
		{"ldflags", "v1.2.3", "0123abcd", stamped, Info{"v1.2.3", "0123abcd", "go1.27.3"}},
		{"vcs stamp", "", "", stamped, Info{"v0.0.0-20261120101010-abcdefabcdef+dirty", "abcdefabcdef0123-dirty", "go1.27.3"}},
		{"no stamp", "", "", &debug.BuildInfo{GoVersion: "go1.27.3", Main: debug.Module{Version: "(devel)"}}, Info{"(devel)", "unknown", "go1.27.3"}},
		{"no build info", "", "", nil, Info{"(devel)", "unknown", runtime.Version()}},
	}
	for _, c := range cases {
		if got := resolve(c.version, c.commit, c.bi); got != c.want {
			t.Errorf("%s: %+v, want %+v", c.name, got, c.want)
		}
	}
	if g := Get(); g.GoVersion != runtime.Version() || g.Version == "" || g.Commit == "" {
		t.Errorf("Get: %+v", g)
	}
}
