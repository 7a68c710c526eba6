package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/orderengine/orderengine/config"
	"github.com/orderengine/orderengine/persistence"
)

func restoreCommand() command {
	return command{summary: "restore a store backup (--in FILE) into this engine's empty data folder, with the engine stopped", run: runRestore}
}

// runRestore is `orderengine restore --in FILE [serve's settings]`: the
// data folder is the configuration's (dataDir, as serve reads it), which
// must hold no store; the backup (`admin backup`, GET /admin/v1/backup)
// is read whole and checked before anything is installed
// (persistence.RestoreBackup). A cluster is restored by restoring one
// backup into every new node's folder before the nodes' first start, or
// into one node's, which then starts first: the others start empty and
// receive its snapshot (docs/cluster.md, "Restoring").
func runRestore(_ context.Context, env *cliEnv, args []string) error {
	var in string
	var rest []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--in" || a == "-in":
			if i+1 == len(args) {
				return errors.New("restore: --in needs a file")
			}
			in = args[i+1]
			i++
		case strings.HasPrefix(a, "--in=") || strings.HasPrefix(a, "-in="):
			_, in, _ = strings.Cut(a, "=")
		default:
			rest = append(rest, a)
		}
	}
	if in == "" {
		return errors.New("restore: --in FILE (a store backup) is required")
	}
	cfg, err := config.LoadConfig(rest, env.lookupEnv, env.stderr)
	if err != nil {
		return err
	}
	f, err := os.Open(in)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	defer func() { _ = f.Close() }()
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	h, err := persistence.RestoreBackup(f, cfg.DataDir)
	if err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	summary := map[string]any{"restored": h.ID, "dataDir": cfg.DataDir, "created": h.Created, "bytes": h.Bytes(),
		"cluster": h.Cluster, "node": h.Node, "orderPartitions": h.OrderPartitions}
	data, _ := json.MarshalIndent(summary, "", "  ")
	_, err = fmt.Fprintf(env.stdout, "%s\n", data)
	return err
}
