package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	apihttp "github.com/orderengine/orderengine/http"
	"github.com/orderengine/orderengine/persistence"
)

// backupTimeout bounds `admin backup` and `admin restore`.
const backupTimeout = time.Hour

// backupFlags is `admin backup --out FILE`: a backup of the engine's
// store (GET /admin/v1/backup) downloaded to a temporary file beside
// FILE, checked whole (its files' sizes and digests, its end), then
// linked to FILE, which must not exist.
func backupFlags(fs *flag.FlagSet) func(ctx context.Context, out io.Writer, base, token string) error {
	file := fs.String("out", "", "the backup file to write (it must not exist)")
	return func(ctx context.Context, out io.Writer, base, token string) error {
		if *file == "" {
			return errors.New("--out is required")
		}
		if _, err := os.Lstat(*file); err == nil {
			return fmt.Errorf("%s exists: a backup never overwrites a file", *file)
		}
		tmp, err := os.CreateTemp(filepath.Dir(*file), "."+filepath.Base(*file)+"-*.tmp")
		if err != nil {
			return err
		}
		defer func() { _ = tmp.Close(); _ = os.Remove(tmp.Name()) }()
		size, err := downloadBackup(ctx, base, token, tmp)
		if err != nil {
			return err
		}
		if _, err := tmp.Seek(0, io.SeekStart); err != nil {
			return err
		}
		h, err := persistence.ReadBackup(tmp, nil)
		if err != nil {
			return fmt.Errorf("the downloaded backup does not read back: %w", err)
		}
		if err := tmp.Sync(); err != nil {
			return err
		}
		// A link fails when the name exists: never an overwrite.
		if err := os.Link(tmp.Name(), *file); err != nil {
			return err
		}
		summary := map[string]any{"file": *file, "bytes": size, "id": h.ID, "cluster": h.Cluster, "node": h.Node,
			"orderPartitions": h.OrderPartitions, "created": h.Created, "positions": h.Positions}
		data, _ := json.MarshalIndent(summary, "", "  ")
		_, err = fmt.Fprintf(out, "%s\n", data)
		return err
	}
}

// downloadBackup copies GET /admin/v1/backup into f.
func downloadBackup(ctx context.Context, base, token string, f *os.File) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, backupTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "GET", base+"/admin/v1/backup", nil)
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return 0, err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
		return 0, fmt.Errorf("GET /admin/v1/backup answered %d: %s", resp.StatusCode, body)
	}
	return io.Copy(f, resp.Body)
}

// restoreFlags is `admin restore --in FILE`: the node reads FILE, a dump
// of a cluster's streams (GET /admin/v1/cluster/backup), itself (the
// admin listener is loopback only, so it is on this host). A store
// backup is refused here: it restores offline (orderengine restore).
func restoreFlags(fs *flag.FlagSet) func(ctx context.Context, out io.Writer, base, token string) error {
	file := fs.String("in", "", "the backup file to restore (on this host)")
	return func(ctx context.Context, out io.Writer, base, token string) error {
		if *file == "" {
			return errors.New("--in is required")
		}
		abs, err := filepath.Abs(*file)
		if err != nil {
			return err
		}
		if f, err := os.Open(abs); err == nil {
			_, herr := persistence.ReadBackup(io.LimitReader(f, 1<<20), nil)
			_ = f.Close()
			if herr == nil || !strings.Contains(herr.Error(), "does not start with") {
				return fmt.Errorf("%s is a store backup: restore it offline into the data folder with the engine stopped (orderengine restore --in FILE)", *file)
			}
		}
		return adminCallWithin(ctx, backupTimeout, out, base, token, "POST", "/admin/v1/cluster/restore", apihttp.RestoreRequest{File: abs})
	}
}
