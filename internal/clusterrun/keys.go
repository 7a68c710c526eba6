package clusterrun

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// adminTokenFile is the file serve writes its admin token to, under its
// data folder, when http.adminToken is empty (http.AdminTokenFile).
const adminTokenFile = "admin.token"

// Limits are an enterprise account's limits per window.
type Limits struct {
	Quote int `json:"quote"`
	Read  int `json:"read"`
	Order int `json:"order"`
}

// IssueKey creates an account through node i's admin API (tier free,
// builder or enterprise; limits only for enterprise) and issues it a key.
// It returns the key and the account's id.
func (c *Cluster) IssueKey(ctx context.Context, i int, name, tier string, limits Limits) (key, account string, err error) {
	bearer, err := c.AdminToken(i)
	if err != nil {
		return "", "", err
	}
	base := c.AdminURL(i)
	var acct struct {
		ID string `json:"id"`
	}
	body, _ := json.Marshal(map[string]any{"name": name, "tier": tier, "limits": limits})
	client := c.Client(i)
	if err := adminPost(ctx, client, base+"/admin/v1/accounts", bearer, body, &acct); err != nil {
		return "", "", err
	}
	var issued struct {
		Key string `json:"key"`
	}
	if err := adminPost(ctx, client, base+"/admin/v1/accounts/"+acct.ID+"/keys", bearer, nil, &issued); err != nil {
		return "", "", err
	}
	return issued.Key, acct.ID, nil
}

// AdminToken is node i's admin token, the one serve wrote to its data
// folder (http.adminToken empty, as every layout runs it).
func (c *Cluster) AdminToken(i int) (string, error) {
	token, err := os.ReadFile(filepath.Join(c.Layout.Nodes[i].DataDir, adminTokenFile))
	if err != nil {
		return "", fmt.Errorf("clusterrun: the admin token of %s: %w", c.Layout.Nodes[i].Name, err)
	}
	return strings.TrimSpace(string(token)), nil
}

// adminPost POSTs body to url with the admin token and decodes the 201
// answer into out.
func adminPost(ctx context.Context, client *http.Client, url, token string, body []byte, out any) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("clusterrun: admin API: %w", err)
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("clusterrun: admin API: %w", err)
	}
	if resp.StatusCode != http.StatusCreated {
		return fmt.Errorf("clusterrun: POST %s answered %d: %s", url, resp.StatusCode, data)
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("clusterrun: POST %s: %w", url, err)
	}
	return nil
}

// AdminGet GETs path from node i's admin API with its admin token and
// decodes the 200 answer into out.
func (c *Cluster) AdminGet(i int, path string, out any) error {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	data, err := c.AdminFetch(ctx, i, path)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, out)
}

// AdminFetch GETs path from node i's admin API with its admin token and
// returns the body of its 200 answer (a profile under
// /admin/v1/debug/pprof/, which takes as long as it asks for: bound it
// with ctx).
func (c *Cluster) AdminFetch(ctx context.Context, i int, path string) ([]byte, error) {
	token, err := c.AdminToken(i)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.AdminURL(i)+path, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := c.Client(i).Do(req)
	if err != nil {
		return nil, fmt.Errorf("clusterrun: admin API of %s: %w", c.Layout.Nodes[i].Name, err)
	}
	defer func() { _ = resp.Body.Close() }()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("clusterrun: GET %s on %s answered %d: %s", path, c.Layout.Nodes[i].Name, resp.StatusCode, data)
	}
	return data, nil
}

// ErrKeyRefused is KeyWorks's answer for a key the node does not accept
// (401).
var ErrKeyRefused = errors.New("clusterrun: key refused")

// KeyWorks asks node i to authenticate key (GET /v1/stats): nil when it
// answers 200, an error wrapping ErrKeyRefused for 401, another error
// otherwise.
func (c *Cluster) KeyWorks(ctx context.Context, i int, key string) error {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.BaseURL(i)+"/v1/stats", nil)
	if err != nil {
		return err
	}
	req.Header.Set("X-API-Key", key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return fmt.Errorf("clusterrun: %s: %w", c.Layout.Nodes[i].Name, err)
	}
	_ = resp.Body.Close()
	switch resp.StatusCode {
	case http.StatusOK:
		return nil
	case http.StatusUnauthorized:
		return fmt.Errorf("%w by %s", ErrKeyRefused, c.Layout.Nodes[i].Name)
	}
	return fmt.Errorf("clusterrun: %s answered %d to a key check", c.Layout.Nodes[i].Name, resp.StatusCode)
}

// WaitKey waits until every node accepts key (a key created on one node
// reaches the others through the cluster's replication) or timeout
// passes; the error names the nodes that still refuse it.
func (c *Cluster) WaitKey(ctx context.Context, key string, timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for {
		var errs []error
		for i := range c.Nodes {
			if err := c.KeyWorks(ctx, i, key); err != nil {
				errs = append(errs, err)
			}
		}
		if len(errs) == 0 {
			return nil
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return fmt.Errorf("clusterrun: the key does not work on every node after %s: %w", timeout, errors.Join(errs...))
		}
		select {
		case <-ctx.Done():
		case <-time.After(100 * time.Millisecond):
		}
	}
}
