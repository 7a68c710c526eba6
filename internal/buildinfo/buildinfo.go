// Package buildinfo says which build of the engine is running: its
// version, the commit it was built from and the Go release that built it.
// `orderengine version`, GET /v1/config (build) and the
// orderengine_build_info metric serve it.
//
// The Makefile's build sets version and commit with
//
//	-ldflags '-X github.com/orderengine/orderengine/internal/buildinfo.version=… -X …buildinfo.commit=…'
//
// A build without them (go build, go install) falls back to what the go
// command stamped: the main module's version (a tag, or a pseudo-version
// from the commit) and the vcs.revision and vcs.modified settings; a build
// with no stamp at all (-buildvcs=false outside a module version) says
// "(devel)" and "unknown".
package buildinfo

import (
	"runtime"
	"runtime/debug"
	"sync"
)

// Set by the linker (-X); empty otherwise.
var (
	version string
	commit  string
)

// Info describes the running build.
type Info struct {
	// Version is the release or the `git describe` of the build, e.g.
	// v1.4.0 or 1ed1109-dirty; "(devel)" when nothing says.
	Version string `json:"version"`
	// Commit is the full commit hash, with "-dirty" when the work tree
	// had changes; "unknown" when nothing says.
	Commit string `json:"commit"`
	// GoVersion is the Go release that built the binary, e.g. go1.27.3.
	GoVersion string `json:"goVersion"`
}

var (
	once   sync.Once
	cached Info
)

// Get returns the running build's Info (computed once).
func Get() Info {
	once.Do(func() {
		bi, _ := debug.ReadBuildInfo()
		cached = resolve(version, commit, bi)
	})
	return cached
}

// resolve prefers the linker's values, then the go command's stamp.
func resolve(version, commit string, bi *debug.BuildInfo) Info {
	info := Info{Version: version, Commit: commit, GoVersion: runtime.Version()}
	if bi != nil {
		if bi.GoVersion != "" {
			info.GoVersion = bi.GoVersion
		}
		if info.Version == "" && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
			info.Version = bi.Main.Version
		}
		if info.Commit == "" {
			var rev string
			var dirty bool
			for _, s := range bi.Settings {
				switch s.Key {
				case "vcs.revision":
					rev = s.Value
				case "vcs.modified":
					dirty = s.Value == "true"
				}
			}
			if rev != "" {
				info.Commit = rev
				if dirty {
					info.Commit += "-dirty"
				}
			}
		}
	}
	if info.Version == "" {
		info.Version = "(devel)"
	}
	if info.Commit == "" {
		info.Commit = "unknown"
	}
	return info
}
