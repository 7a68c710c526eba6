package http

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/gofiber/fiber/v2"

	"github.com/orderengine/orderengine"
)

// backupTimeout bounds one backup or restore through the admin API.
const backupTimeout = time.Hour

// RestoreRequest is the body of POST /admin/v1/cluster/restore: the
// absolute path of a backup file on this node's host (the admin listener
// is loopback only, so the caller is on the same host), which the node
// reads twice: once whole to check it, once to republish it.
type RestoreRequest struct {
	File string `json:"file"`
}

// notClusterNode answers the cluster routes of a single node.
func notClusterNode() error {
	return orderengine.Errorf(orderengine.CodeNotFound, "this engine is not a cluster node (cluster.enabled is off): back up its store with GET /admin/v1/backup (docs/cluster.md, \"Backups\")")
}

// storeBackup answers GET /admin/v1/backup with a backup of this
// engine's store (persistence.Backup: a tar of a checkpoint, which holds
// a cluster's whole history), written first to an unlinked temporary
// file in the data folder, so that a failure is an error answer, never a
// cut-short body.
func (s *Server) storeBackup(c *fiber.Ctx) error {
	if s.storeBackupFn == nil {
		return orderengine.Errorf(orderengine.CodeNotFound, "backups are not served by this engine")
	}
	return s.sendBackup(c, "application/x-tar", "orderengine-backup.tar", func(ctx context.Context, w io.Writer) error {
		_, err := s.storeBackupFn(ctx, w)
		return err
	})
}

// clusterBackup answers GET /admin/v1/cluster/backup with a dump of the
// cluster's streams (application/gzip), written first to an unlinked
// temporary file as storeBackup's.
func (s *Server) clusterBackup(c *fiber.Ctx) error {
	if s.backup == nil {
		return notClusterNode()
	}
	return s.sendBackup(c, "application/gzip", "orderengine-backup.jsonl.gz", s.backup)
}

// sendBackup writes a backup with write into an unlinked temporary file
// of the data folder, then sends it.
func (s *Server) sendBackup(c *fiber.Ctx, contentType, name string, write func(ctx context.Context, w io.Writer) error) error {
	f, err := os.CreateTemp(s.cfg.DataDir, "backup-*.tmp")
	if err != nil {
		return fmt.Errorf("http: backup: %w", err)
	}
	_ = os.Remove(f.Name())
	ctx, cancel := context.WithTimeout(c.UserContext(), backupTimeout)
	defer cancel()
	if err := write(ctx, f); err != nil {
		_ = f.Close()
		return err
	}
	size, err := f.Seek(0, io.SeekCurrent)
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		_ = f.Close()
		return fmt.Errorf("http: backup: %w", err)
	}
	c.Set(fiber.HeaderContentType, contentType)
	c.Set(fiber.HeaderContentDisposition, `attachment; filename="`+name+`"`)
	// fasthttp closes the file once the body is sent.
	return c.Status(200).SendStream(f, int(size))
}

// clusterRestore answers POST /admin/v1/cluster/restore.
func (s *Server) clusterRestore(c *fiber.Ctx) error {
	if s.restore == nil {
		return notClusterNode()
	}
	var req RestoreRequest
	if err := decodeAdmin(c, &req); err != nil {
		return err
	}
	if !filepath.IsAbs(req.File) {
		return orderengine.Errorf(orderengine.CodeInvalidRequest, "file must be the absolute path of a backup file on this node's host")
	}
	f, err := os.Open(req.File)
	if err != nil {
		return orderengine.Errorf(orderengine.CodeInvalidRequest, "cannot open the backup file: %v", err)
	}
	defer func() { _ = f.Close() }()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() {
		return orderengine.Errorf(orderengine.CodeInvalidRequest, "%s is not a regular file", req.File)
	}
	ctx, cancel := context.WithTimeout(c.UserContext(), backupTimeout)
	defer cancel()
	res, err := s.restore(ctx, f)
	return reply(c, 200, res, err)
}
